// URLs with Latin-1 letters (`https://bücher.example/`) parse however often the code has run. On Node 20, once V8
// optimizes a call site of `URL.canParse`, its fast path answers false for them (measured on 20.20.2 after ~100 000
// calls): the gate matched pages, the reporters linked and the transport followed redirects through such a call.
// Each helper here is warmed past that point and must still parse them; test/structure/url-parsing.test.ts keeps
// `URL.canParse` out of src/.
import { describe, expect, it } from 'vitest';
import { parseUrl as cliParseUrl } from '../../src/cli/io/parse-url.js';
import { normalizePageUrl, pageKey } from '../../src/cli/pages/page-urls.js';
import { parseUrl } from '../../src/internal/parse-url.js';

const WARM = 200_000;
const LATIN_1 = ['https://bücher.example/', 'https://a.example/straße/ß?q=ü', 'http://café.example/menü'];

describe.each([
  ['the SDK (src/internal/parse-url.ts)', (url: string) => parseUrl(url)?.href],
  ['the CLI (src/cli/io/parse-url.ts)', (url: string) => cliParseUrl(url)?.href],
  ["the gate's page URLs (normalizePageUrl)", normalizePageUrl],
])('%s', (_where, parse) => {
  it('parses URLs with Latin-1 letters after being called 200 000 times', () => {
    for (let i = 0; i < WARM; i++) parse(`https://a.example/${i}`);
    expect(LATIN_1.map(parse)).toEqual(LATIN_1.map((url) => new URL(url).href));
    expect(parse('not a url')).toBeUndefined();
  });
});

it('an IDN page and its punycode spelling are one page, however many pages were matched before', () => {
  for (let i = 0; i < WARM; i++) pageKey(`https://a.example/${i}`);
  expect(pageKey('https://bücher.example/')).toBe(pageKey('https://xn--bcher-kva.example/'));
});

it('parses against a base, as a redirect Location is', () => {
  expect(parseUrl('/next', 'https://bücher.example/a')?.href).toBe('https://xn--bcher-kva.example/next');
  expect(parseUrl('http://[', 'https://a.example/')).toBeUndefined();
});
