// The config file: read under a cap, a UTF-8 byte order mark accepted, and a JSON error that names the file, the
// line and the column but never quotes the file (it may be a secrets file passed by mistake). The JSON error
// finder must agree with JSON.parse on what is valid, or it would point at the wrong place.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/cli/settings/config.js';
import { UsageError } from '../../src/cli/exit-codes.js';
import { describeJsonError, findJsonError } from '../../src/cli/io/json-error.js';

const dir = mkdtempSync(join(tmpdir(), 'svc-a11y-config-'));
afterAll(() => execFileSync('rm', ['-rf', dir]));
let count = 0;
const configFile = (content: string | Buffer) => {
  const file = join(dir, `config-${++count}.json`);
  writeFileSync(file, content);
  return file;
};
const refusal = (file: string): UsageError => {
  try {
    loadConfig(file, dir);
  } catch (error) {
    return error as UsageError;
  }
  throw new Error('expected a refusal');
};

describe('findJsonError agrees with JSON.parse', () => {
  const valid = [
    '{}',
    '[]',
    '0',
    '-0.5e+10',
    '"a\\u00e9\\n"',
    'true',
    'null',
    ' {"a": [1, {"b": null}], "c": "\\"x\\""} ',
    '[[[[[]]]]]',
    '{"":""}',
    '"\uD83D\uDE00"',
  ];
  const invalid = [
    '',
    ' ',
    '{',
    '}',
    '[1,]',
    '{"a":1,}',
    '{"a" 1}',
    "{'a': 1}",
    '{a: 1}',
    '[1 2]',
    '01',
    '1.',
    '.5',
    '+1',
    '-',
    'tru',
    'True',
    'nul',
    '"abc',
    '"a\\x"',
    '"\\u12"',
    '"a\nb"',
    '[1] 2',
    '{"a":1}}',
    'NaN',
    'Infinity',
    '[,]',
    '{,}',
    '{"a":}',
    '"\t"',
    '\uFEFF{}',
  ];
  it.each(valid)('valid: %j', (text) => {
    expect(() => JSON.parse(text)).not.toThrow();
    expect(findJsonError(text)).toBeUndefined();
  });
  it.each(invalid)('invalid: %j', (text) => {
    expect(() => JSON.parse(text)).toThrow();
    expect(findJsonError(text)).toBeDefined();
  });

  it('on 3 000 mutations of a valid config (seeded): valid exactly when JSON.parse says so', () => {
    const base =
      '{\n  "urls": ["https://a.example/", "https://b.example/x?y=1"],\n  "failOn": "ANY_CRITICAL",\n  "timeout": 600000,\n  "setBaseline": false,\n  "context": {"branch": "main\\u00e9", "n": null}\n}\n';
    const alphabet = '{}[]:,"\\ \n\t0123456789-+.eEtrufalsn\u00e9x';
    let seed = 42;
    const random = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    let disagreements = 0;
    let invalidSeen = 0;
    for (let i = 0; i < 3000; i++) {
      let text = base;
      for (let edits = 1 + random(3); edits > 0; edits--) {
        const at = random(text.length);
        const op = random(3);
        const c = alphabet[random(alphabet.length)]!;
        text =
          op === 0
            ? text.slice(0, at) + text.slice(at + 1)
            : op === 1
              ? text.slice(0, at) + c + text.slice(at)
              : text.slice(0, at) + c + text.slice(at + 1);
      }
      let parses = true;
      try {
        JSON.parse(text);
      } catch {
        parses = false;
        invalidSeen++;
      }
      if (parses !== (findJsonError(text) === undefined)) disagreements++;
    }
    expect(disagreements).toBe(0);
    expect(invalidSeen).toBeGreaterThan(1000);
  });
});

describe('describeJsonError: line and column, no content', () => {
  it.each([
    ['{"a": 1,}', "line 1, column 9: a trailing comma before '}'"],
    ['{\n  "a": 1\n  "b": 2\n}', "line 3, column 3: expected ',' or '}'"],
    [
      '{\r\n  "a": x\r\n}',
      'line 2, column 8: expected a value (an object, array, string, number, true, false or null)',
    ],
    ['{"é😀": tru}', 'line 1, column 8: expected a value (an object, array, string, number, true, false or null)'],
    [
      '{\n"a": "never closed\n}',
      'line 2, column 19: a control character (such as a line break) inside a string; escape it',
    ],
    ['{"a": "never closed', 'line 1, column 7: a string that is never closed starts here'],
    ['', 'line 1, column 1: the text is empty'],
    ['{"a": [1, 2', 'line 1, column 12: the text ends too early'],
    ['{} {}', 'line 1, column 4: unexpected text after the JSON value'],
    ["{'a': 1}", 'line 1, column 2: expected a property name in double quotes'],
  ])('%j → %s', (text, description) => {
    expect(describeJsonError(text)).toBe(description);
  });

  it('a text nested a million levels deep is described without overflowing the stack', () => {
    expect(describeJsonError('['.repeat(1_000_000))).toBe('line 1, column 1000001: the text ends too early');
  });
});

describe('loadConfig', () => {
  it('a UTF-8 byte order mark before the JSON is accepted', () => {
    const file = configFile(
      Buffer.concat([
        Buffer.from([0xef, 0xbb, 0xbf]),
        Buffer.from('{"urls": ["https://shop.example.com/"], "failOn": "NONE"}'),
      ]),
    );
    expect(loadConfig(file, dir)).toEqual({ file, urls: ['https://shop.example.com/'], failOn: 'NONE' });
  });

  const secret = 'svc_live_9f8e7d6c5b4a39281706';
  it.each([
    ['a bare word after a key', `{"apiKey": ${secret}}`, 'line 1, column 12'],
    ['single quotes', `{\n  'apiKey': '${secret}'\n}`, 'line 2, column 3'],
    ['a missing comma on line 3', `{\n  "apiKey": "${secret}"\n  "other": "${secret}"\n}`, 'line 3, column 3'],
    ['a string never closed', `{"apiKey": "${secret}`, 'line 1, column 12'],
    ['a raw line break in a string', `{"apiKey": "${secret}\n"}`, `line 1, column ${13 + secret.length}`],
    ['a .env file, not JSON', `SVC_API_KEY=${secret}\nOTHER=1\n`, 'line 1, column 1'],
    [
      'a trailing comma',
      `{"urls": ["https://a.example/"], "note": "${secret}",}`,
      `line 1, column ${45 + secret.length}`,
    ],
  ])('%s → exit-2 error naming the file, line and column; the contents never quoted', (_name, content, where) => {
    const file = configFile(content);
    const error = refusal(file);
    expect(error).toBeInstanceOf(UsageError);
    expect(error.message).toMatch(
      new RegExp(`^config file ${file} is not valid JSON \\(${where}: [^"']*('[,:}\\]]'[^"']*)*\\)$`),
    );
    expect(error.message).not.toContain(secret);
    expect(error.message).not.toContain('svc_');
    expect(error.message).not.toContain('SVC_API_KEY');
  });

  it('an empty file (or only blanks) → "is empty"', () => {
    const file = configFile(' \n');
    expect(refusal(file).message).toBe(`config file ${file} is empty; it must hold a JSON object`);
  });

  it.each([
    ['/dev/zero', () => '/dev/zero'],
    ['a 5 MiB file', () => configFile(Buffer.alloc(5 * 1024 * 1024, 0x20))],
  ])('%s → refused at the 1 MiB cap, naming the file', (_name, path) => {
    const file = path();
    expect(refusal(file).message).toBe(
      `config file: ${file} is larger than the 1 MiB cap (1048576 bytes); stopped reading`,
    );
  });
});
