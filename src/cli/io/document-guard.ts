// The last line of defence over a document the CLI writes (a report, a JSON answer, an MCP message), after its values
// were made safe where they entered (safe-text.ts). It knows the document's syntax and redacts only inside values —
// a JSON string, an XML or HTML text or attribute value — decoded first and encoded again by the syntax's own rules,
// so that it can never change the document's structure: redacting serialised text with a pattern once took the `\`
// of a `\"` and left every JSON report unparseable. Text without structure (plain text, Markdown, a log line) gets
// the serialised-text redaction, whose patterns stop at every character with a meaning in a syntax.
import { jsonText, parseMapped, redactText, redactValue } from './safe-text.js';

/**
 * How a document is written, for {@link guardDocument}: `json` (pretty, as `jsonText` writes it), `json-lines` (one
 * compact JSON value a line: the MCP transport), `xml`, `html`, or `text` (plain text and Markdown).
 */
export type Syntax = 'json' | 'json-lines' | 'xml' | 'html' | 'text';

/**
 * `text` with every protected secret, URL credential and credential-like query parameter redacted inside its values
 * only, by `syntax`'s rules; the text unchanged, byte for byte, when nothing needed redacting. A document that does
 * not parse as its syntax has no structure to keep and gets the plain-text redaction.
 * @example guardDocument('{\n  "u": "/r?token=a\\"b"\n}\n', 'json', []) // '{\n  "u": "/r?token=[redacted]"\n}\n'
 */
export function guardDocument(text: string, syntax: Syntax, secrets: readonly string[]): string {
  switch (syntax) {
    case 'json':
      return guardJson(text, secrets, (value) => jsonText(value));
    case 'json-lines':
      return text
        .split('\n')
        .map((line) => (line.trim() ? guardJson(line, secrets, (value) => JSON.stringify(value)) : line))
        .join('\n');
    case 'xml':
    case 'html':
      return guardMarkup(text, secrets);
    default:
      return redactText(text, secrets);
  }
}

function guardJson(text: string, secrets: readonly string[], write: (value: unknown) => string): string {
  let changed = false;
  let guarded: unknown;
  try {
    guarded = parseMapped(text, (item) => {
      const safe = redactValue(item, secrets);
      changed ||= safe !== item;
      return safe;
    });
  } catch {
    return redactText(text, secrets);
  }
  if (!changed) return text;
  // The same layout: what surrounded the value (a final line break) stays.
  const lead = /^\s*/.exec(text)![0];
  const trail = /\s*$/.exec(text)![0];
  return `${lead}${write(guarded)}${trail}`;
}

// Markup in the order a parser meets it: comments, CDATA sections, declarations and processing instructions, tags
// (attribute values quoted or not); everything between is character data.
const MARKUP =
  /<!--[\s\S]*?-->|<!\[CDATA\[[\s\S]*?\]\]>|<[?!][^>]*>|<\/?[A-Za-z][^\s/>]*(?:\s+[^\s"'=/>]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'=<>`]+))?)*\s*\/?>/g;
const ATTRIBUTE_VALUE = /(=\s*)(?:"([^"]*)"|'([^']*)')/g;

function guardMarkup(text: string, secrets: readonly string[]): string {
  let out = '';
  let from = 0;
  for (const match of text.matchAll(MARKUP)) {
    out += characterData(text.slice(from, match.index), secrets) + markup(match[0], secrets);
    from = match.index + match[0].length;
  }
  return out + characterData(text.slice(from), secrets);
}

function markup(token: string, secrets: readonly string[]): string {
  if (token.startsWith('<!--')) {
    const inner = token.slice(4, -3);
    const safe = redactText(inner, secrets);
    return safe === inner ? token : `<!--${safe.replace(/--/g, '- -')}-->`;
  }
  if (token.startsWith('<![CDATA[')) {
    const inner = token.slice(9, -3);
    const safe = redactValue(inner, secrets);
    // A `]]>` the redaction made ("x]" + "]>") is split across two sections, as XML writers split one.
    return safe === inner ? token : `<![CDATA[${safe.replace(/]]>/g, ']]]]><![CDATA[>')}]]>`;
  }
  if (token.startsWith('<?') || token.startsWith('<!')) return token;
  return token.replace(ATTRIBUTE_VALUE, (whole, eq: string, double?: string, single?: string) => {
    const raw = double ?? single ?? '';
    const safe = characterData(raw, secrets);
    if (safe === raw) return whole;
    return double === undefined ? `${eq}'${safe}'` : `${eq}"${safe}"`;
  });
}

// Character data: decoded, redacted as one raw value, and encoded again when anything changed.
function characterData(data: string, secrets: readonly string[]): string {
  if (!data) return data;
  const decoded = decodeEntities(data);
  const safe = redactValue(decoded, secrets);
  return safe === decoded ? data : encodeEntities(safe);
}

const NAMED: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

function decodeEntities(data: string): string {
  return data.replace(/&(?:#(\d{1,7})|#[xX]([\da-fA-F]{1,6})|(lt|gt|amp|quot|apos));/g, (whole, dec, hex, name) => {
    if (name) return NAMED[name as string]!;
    const code = dec ? Number(dec) : Number.parseInt(hex as string, 16);
    return code <= 0x10ffff ? String.fromCodePoint(code) : whole;
  });
}

// The markup characters, and the controls a reference may have stood for (XML allows none of them raw but tab, line
// feed and carriage return), as numeric references.
function encodeEntities(text: string): string {
  return text.replace(/[&<>"'\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/g, (c) => `&#${c.charCodeAt(0)};`);
}
