// Where a JSON text is broken, in words that never quote it. V8's JSON.parse messages quote the text near the
// error (`Unexpected token 'x', "{"apiKey": x…" is not valid JSON`), and a file passed as `--config` may be a
// secrets file: the CLI finds the first error itself and names only its line, its column and the rule broken.

/** The first syntax error of a JSON text: where (0-based offset into the string) and the rule it breaks. */
export interface JsonSyntaxError {
  /** Offset of the offending character (the text's length when it ends too early). */
  offset: number;
  /** The rule, in words that hold no character of the text beyond JSON punctuation. */
  reason: string;
}

type Want = 'value' | 'valueOrClose' | 'key' | 'keyOrClose' | 'colon' | 'next';

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const LITERAL = /true|false|null/y;

/**
 * Finds the first syntax error of `text` by RFC 8259's grammar (iteratively: a deeply nested text cannot
 * overflow the stack), or undefined when it is valid JSON.
 * @example findJsonError('{"a": 1,}') // { offset: 8, reason: "a trailing comma before '}'" }
 */
export function findJsonError(text: string): JsonSyntaxError | undefined {
  const open: Array<'[' | '{'> = [];
  let want: Want = 'value';
  let i = 0;
  const at = (reason: string, offset = i): JsonSyntaxError => ({ offset, reason });
  for (;;) {
    while (i < text.length && ' \t\n\r'.includes(text[i]!)) i++;
    if (i >= text.length)
      return want === 'next' && open.length === 0
        ? undefined
        : at(text.trim() === '' ? 'the text is empty' : 'the text ends too early');
    const c = text[i]!;
    switch (want) {
      case 'value':
      case 'valueOrClose':
        if (c === ']' && want === 'valueOrClose') {
          open.pop();
          i++;
          want = 'next';
        } else if (c === '{' || c === '[') {
          open.push(c);
          i++;
          want = c === '{' ? 'keyOrClose' : 'valueOrClose';
        } else {
          if (c === ']' || c === '}') return at(`a trailing comma before '${c}'`, i);
          const end = c === '"' ? stringEnd(text, i) : (matchEnd(NUMBER, text, i) ?? matchEnd(LITERAL, text, i));
          if (typeof end !== 'number')
            return end ?? at('expected a value (an object, array, string, number, true, false or null)');
          i = end;
          want = 'next';
        }
        break;
      case 'key':
      case 'keyOrClose': {
        if (c === '}' && want === 'keyOrClose') {
          open.pop();
          i++;
          want = 'next';
          break;
        }
        if (c === '}') return at("a trailing comma before '}'");
        if (c !== '"') return at('expected a property name in double quotes');
        const end = stringEnd(text, i);
        if (typeof end !== 'number') return end;
        i = end;
        want = 'colon';
        break;
      }
      case 'colon':
        if (c !== ':') return at("expected ':' after the property name");
        i++;
        want = 'value';
        break;
      case 'next': {
        const inside = open.at(-1);
        if (inside === undefined) return at('unexpected text after the JSON value');
        const close = inside === '{' ? '}' : ']';
        if (c === ',') want = inside === '{' ? 'key' : 'value';
        else if (c === close) open.pop();
        else return at(`expected ',' or '${close}'`);
        i++;
        break;
      }
    }
  }
}

/**
 * `text`'s first syntax error as `line L, column C: rule` (1-based; a column counts characters), or a
 * fixed phrase when none is found. Never any of the text's own characters.
 * @example describeJsonError('{\n  "a": 1,\n}') // "line 3, column 1: a trailing comma before '}'"
 */
export function describeJsonError(text: string): string {
  const error = findJsonError(text);
  if (!error) return 'position unknown';
  let line = 1;
  let column = 1;
  for (let i = 0; i < error.offset; i++) {
    const c = text.charCodeAt(i);
    // \r\n is one line break; a lone \r is one too. The low half of a surrogate pair adds no column.
    if (c === 0x0a || (c === 0x0d && text.charCodeAt(i + 1) !== 0x0a)) {
      line++;
      column = 1;
    } else if (c !== 0x0d && (c < 0xdc00 || c > 0xdfff)) column++;
  }
  return `line ${line}, column ${column}: ${error.reason}`;
}

// The offset just past the string starting at `start` (a `"`), or the error inside it.
function stringEnd(text: string, start: number): number | JsonSyntaxError {
  for (let i = start + 1; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) return i + 1;
    if (c < 0x20) return { offset: i, reason: 'a control character (such as a line break) inside a string; escape it' };
    if (c === 0x5c) {
      const next = text[i + 1];
      if (next === 'u') {
        if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6)))
          return { offset: i, reason: 'a \\u escape needs four hex digits' };
        i += 5;
      } else if (next !== undefined && '"\\/bfnrt'.includes(next)) i++;
      else
        return {
          offset: i,
          reason: 'an unknown escape in a string (allowed: \\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX)',
        };
    }
  }
  return { offset: start, reason: 'a string that is never closed starts here' };
}

function matchEnd(pattern: RegExp, text: string, at: number): number | undefined {
  pattern.lastIndex = at;
  return pattern.test(text) ? pattern.lastIndex : undefined;
}
