// The client checks header names and values by hand (a first `new Headers()` costs ~14 ms on Node): the
// check must agree with what fetch itself accepts, or a bad value would still throw a raw TypeError per call.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { A11yClient, ConfigurationError } from '../../src/index.js';
import { HEADER_NAME, isHeaderValue } from '../../src/core/options.js';

const headersAccept = (name: string, value: string) => {
  try {
    new Headers({ [name]: value });
    return true;
  } catch {
    return false;
  }
};
// Mostly the characters that matter (controls, whitespace, Latin-1 edge, beyond Latin-1) around plain text.
const tricky = fc.constantFrom(
  '\0',
  '\r',
  '\n',
  '\t',
  ' ',
  '\x7f',
  '\xff',
  '\u0100',
  '\u2028',
  '😀',
  'a',
  ':',
  '"',
  '(',
  '=',
);
const text = fc
  .array(fc.oneof(tricky, fc.string({ maxLength: 3 }), fc.string({ unit: 'binary', maxLength: 2 })), { maxLength: 8 })
  .map((a) => a.join(''));

describe('header checks agree with fetch', () => {
  it('values: accepted exactly when new Headers() accepts them', () => {
    fc.assert(
      fc.property(text, (value) => isHeaderValue(value) === headersAccept('x-test', value)),
      { numRuns: 5_000 },
    );
  });

  it('names: accepted exactly when new Headers() accepts them', () => {
    fc.assert(
      fc.property(text, (name) => HEADER_NAME.test(name) === headersAccept(name, 'v')),
      { numRuns: 5_000 },
    );
  });

  it.each([
    ['a bad header name, named in the message', { 'X Bad': 'v' }, /headers: "X Bad" is not a valid HTTP header name/],
    [
      'a bad header value, the header named and the value not echoed',
      { 'X-Trace': 'secret\r\nInjected: 1' },
      /headers\["X-Trace"\] must be a valid HTTP header value/,
    ],
    ['a non-Latin-1 value', { 'X-Team': 'café ☕' }, /headers\["X-Team"\]/],
  ])('%s → ConfigurationError at construction', (_label, headers, message) => {
    const construct = () => new A11yClient({ apiKey: 'svc_key', baseUrl: 'http://127.0.0.1:9', headers });
    expect(construct).toThrow(ConfigurationError);
    expect(construct).toThrow(message);
    expect(construct).not.toThrow(/secret|Injected|café/);
  });

  it('a key fetch would refuse → ConfigurationError naming apiKey, the key not echoed', () => {
    const construct = () => new A11yClient({ apiKey: 'svc_k\u0101y', baseUrl: 'http://127.0.0.1:9' });
    expect(construct).toThrow(/^apiKey must be a valid HTTP header value/);
    expect(construct).not.toThrow(/svc_k/);
  });
});
