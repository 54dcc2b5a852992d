// The "did you mean" suggestion: close typos get the intended name, unrelated words get none.
import { describe, expect, it } from 'vitest';
import { closest } from '../../src/cli/suggest.js';

const FLAGS = [
  'fail-on',
  'format',
  'set-baseline',
  'sarif-map',
  'report',
  'timeout',
  'quiet',
  'json',
  'api-key',
  'base-url',
];

describe('closest', () => {
  it.each([
    ['fail-onn', 'fail-on'],
    ['fial-on', 'fail-on'],
    ['FAIL-ON', 'fail-on'],
    ['formt', 'format'],
    ['reprot', 'report'],
    ['timout', 'timeout'],
    ['jsn', 'json'],
    ['apikey', 'api-key'],
    ['sarifmap', 'sarif-map'],
  ])('%s → %s', (given, expected) => {
    expect(closest(given, FLAGS)).toBe(expected);
  });

  it.each(['bogus', 'x', 'verbose-logging', 'a'.repeat(10_000)])('%s → nothing', (given) => {
    expect(closest(given, FLAGS)).toBeUndefined();
  });
});
