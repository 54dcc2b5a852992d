// Deterministic randomness: every "random" choice of the simulator derives from the seed through these
// helpers, so two simulators with the same seed answer identically (ids of jobs aside).
import { createHash } from 'node:crypto';

/**
 * 32-bit FNV-1a hash of a string (the PRNG's starting state).
 * @example hash32('1|https://shop.example.com/') // a stable unsigned 32-bit integer
 */
export function hash32(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/**
 * Mulberry32: a tiny, fast PRNG with good enough spread for picking findings. Returns numbers in [0, 1).
 * @example const next = prng(hash32('seed')); next(); // 0.37…
 */
export function prng(state: number): () => number {
  let a = state >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * A UUID in RFC 4122 version-4 layout derived from `(seed, name)`: seeded resources keep the same id across
 * simulator instances with the same seed (handy for demos and docs), while still matching `format: uuid`.
 * @example seededUuid(1, 'site:shop') // 'xxxxxxxx-xxxx-4xxx-[89ab]xxx-xxxxxxxxxxxx', stable
 */
export function seededUuid(seed: number, name: string): string {
  const hex = createHash('sha256').update(`${seed}:${name}`).digest('hex');
  // Version nibble 4, variant bits 10xx: the layout crypto.randomUUID() produces.
  const variant = ((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/**
 * Stable fingerprint of a finding: the first 16 hex digits of SHA-256 over `(ruleId, url, target)`.
 * Independent of the seed, so the same finding keeps its fingerprint whatever produced it.
 * @example fingerprint('image-alt', 'https://shop.example.com/', 'img.hero') // '5f0c…' (16 hex digits)
 */
export function fingerprint(ruleId: string, url: string, target: string): string {
  // NUL separators keep ('a', 'bc') and ('ab', 'c') apart.
  return createHash('sha256').update(`${ruleId}\0${url}\0${target}`).digest('hex').slice(0, 16);
}
