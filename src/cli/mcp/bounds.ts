// How large a tool's answer may be. Service text is of any length (a 4 MiB selector is a valid finding), and an
// agent's client reads each message into a buffer of its own (the official client's holds 10 MiB, and a message past
// it closes the whole session): every string of the data is clipped, the text too, and the whole result is bounded.
import { mapJsonStrings } from '../io/safe-text.js';
import { failure } from './errors.js';
import type { ToolResult } from './tool.js';

/** Characters of one string in `structuredContent`, the clipping mark included. */
const STRING_LIMIT = 2_048;
/** Characters of a result's text. */
const TEXT_LIMIT = 20_000;
/** Bytes of a whole result as JSON (its text and its data). */
const RESULT_LIMIT = 1_048_576;
/** Bytes the findings of one result may take as JSON: what is left of {@link RESULT_LIMIT} for the rest. */
const FINDINGS_BYTES = 786_432;

/**
 * `text` cut to at most `max` characters, ending in a mark that says it was clipped and how long it was (never
 * halving a surrogate pair); unchanged when it fits.
 * @default max STRING_LIMIT
 * @example clipString('x'.repeat(5000)) // 'xxx… [clipped: 5000 characters]' (2048 characters in all)
 */
export function clipString(text: string, max: number = STRING_LIMIT): string {
  return text.length <= max ? text : clipWith(text, `… [clipped: ${text.length} characters]`, max);
}

/**
 * The start of `text` and `mark`, `max` characters in all (never halving a surrogate pair: a high surrogate at the
 * cut would be written alone).
 * @example clipWith('a long line', '…', 6) // 'a lon…'
 */
export function clipWith(text: string, mark: string, max: number): string {
  let end = Math.max(0, max - mark.length);
  if (end > 0 && /[\uD800-\uDBFF]/.test(text[end - 1]!)) end -= 1;
  return `${text.slice(0, end)}${mark}`;
}

/**
 * A result within the bounds: each string of its data clipped to {@link STRING_LIMIT}, its text to
 * {@link TEXT_LIMIT}; a result still larger than {@link RESULT_LIMIT} becomes an `isError` result saying so (the
 * tools cap their lists by size first, so only a tool's bug gets there).
 * @example return boundResult(await tool.run(input, ctx), tool.name);
 */
export function boundResult(result: ToolResult, tool: string): ToolResult {
  const bounded: ToolResult = {
    ...result,
    content: result.content.map((item) => ({ ...item, text: clipText(item.text) })),
    ...(result.structuredContent
      ? { structuredContent: mapJsonStrings(result.structuredContent, (text) => clipString(text)) }
      : {}),
  };
  const bytes = Buffer.byteLength(JSON.stringify(bounded));
  if (bytes <= RESULT_LIMIT) return bounded;
  return failure(
    `The result of ${tool} was ${bytes} bytes, over the server's bound of ${RESULT_LIMIT} bytes, and was not sent. Ask for less (a lower limit, an impact filter).`,
    { kind: 'too-large', bytes, limit: RESULT_LIMIT },
  );
}

function clipText(text: string): string {
  return text.length <= TEXT_LIMIT
    ? text
    : clipWith(text, `\n… [text clipped: ${text.length} characters; the structured result has the data]`, TEXT_LIMIT);
}

/**
 * How many of `items` (worst first) fit in `bytes` as JSON, at least one.
 * @default bytes FINDINGS_BYTES
 * @example const fit = fitting(findings); // findings.slice(0, fit) is under 768 KiB
 */
export function fitting(items: readonly unknown[], bytes: number = FINDINGS_BYTES): number {
  let used = 2;
  for (let i = 0; i < items.length; i++) {
    used += Buffer.byteLength(JSON.stringify(items[i])) + 1;
    if (used > bytes) return Math.max(1, i);
  }
  return items.length;
}
