// Schema comparison in one direction. What users' code writes ("request": what the SDK sends; "answer": what a
// webhook receiver answers) may not get stricter; what it reads ("response": what the SDK receives; "webhook": a
// webhook's payload and headers) may not get looser, nor lose what code names (an enum value, a field).
// Each rule is judged twice: on the wire, and on a TypeScript consumer's build after regeneration.
import { deref, list, same, show } from './util.mjs';

/** @typedef {import('./bump.mjs').ChangeClass} ChangeClass */
/** @typedef {'request' | 'response' | 'webhook' | 'answer'} Dir */

/** True for what users' code writes and the other side reads (a request, a webhook receiver's answer). */
const writes = (/** @type {Dir} */ dir) => dir === 'request' || dir === 'answer';
/** How the report names a direction. */
const NOUN = { request: 'request', response: 'response', webhook: 'webhook', answer: 'receiver answer' };

function typesOf(s) {
  const t = new Set(Array.isArray(s.type) ? s.type : s.type ? [s.type] : []);
  if (s.nullable === true) t.add('null'); // OpenAPI 3.0 spelling
  if (t.size === 0 && !s.oneOf && !s.anyOf && !s.allOf) {
    if (s.properties || s.additionalProperties !== undefined || s.required) t.add('object');
    else if (s.items) t.add('array');
  }
  return t;
}
const covers = (set, t) => set.has(t) || (t === 'integer' && set.has('number'));
const typeText = (set) => (set.size ? [...set].sort().join(' | ') : 'any');
const enumOf = (s) => (Array.isArray(s.enum) ? s.enum : s.const !== undefined ? [s.const] : undefined);

const UPPER = ['maxLength', 'maximum', 'exclusiveMaximum', 'maxItems', 'maxProperties'];
const LOWER = ['minLength', 'minimum', 'exclusiveMinimum', 'minItems', 'minProperties'];
const OTHER = ['pattern', 'multipleOf', 'format', 'uniqueItems'];

/**
 * Compares two schemas in one direction and returns the changes (labels start at the nearest named component,
 * so a shared schema reports once whatever uses it). Named pairs are memoised; a pair met again while being
 * compared (a recursive schema) adds nothing.
 */
export class SchemaDiff {
  constructor(base, head) {
    this.base = base;
    this.head = head;
    /** @type {Map<string, {class: ChangeClass, message: string}[]>} */
    this.memo = new Map();
  }

  /** @param {Dir} dir @returns {{class: ChangeClass, message: string}[]} */
  compare(b0, h0, label, dir) {
    const b = deref(this.base, b0);
    const h = deref(this.head, h0);
    if (b.name || h.name) {
      const key = `${dir}|${b.name}|${h.name}`;
      const known = this.memo.get(key);
      if (known) return known;
      const out = [];
      this.memo.set(key, out); // in progress: a recursive reference sees this (still empty) list
      out.push(...this.#compareResolved(b.node, h.node, h.name ?? b.name, dir));
      return out;
    }
    return this.#compareResolved(b.node, h.node, label, dir);
  }

  #compareResolved(b, h, label, dir) {
    /** @type {{class: ChangeClass, message: string}[]} */
    const out = [];
    const add = (cls, message) => out.push({ class: cls, message });
    if (typeof b !== 'object' || typeof h !== 'object' || b === null || h === null) {
      // `true`/`false` schemas (JSON Schema 2020-12).
      if (!same(b, h)) add(writes(dir) ? 'breaking' : 'potentially breaking', `${NOUN[dir]} schema changed: ${label}`);
      return out;
    }
    const req = writes(dir);
    const noun = NOUN[dir];

    // Types: a request may accept more, a response may send less.
    const bt = typesOf(b);
    const ht = typesOf(h);
    if (typeText(bt) !== typeText(ht)) {
      const what = `${label} ${typeText(bt)} → ${typeText(ht)}`;
      if (req) {
        const widened = ht.size === 0 || (bt.size > 0 && [...bt].every((t) => covers(ht, t)));
        add(widened ? 'additive' : 'breaking', `${noun} type ${widened ? 'widened' : 'changed'}: ${what}`);
      } else {
        const narrowed = bt.size === 0 || (ht.size > 0 && [...ht].every((t) => covers(bt, t)));
        // Dropping `null` leaves `x === null` compiling; dropping another type empties the branches code wrote
        // for it (`typeof x === 'string' && x.trim()` no longer compiles on `never`), though the wire is fine.
        const onlyNull = narrowed && [...bt].every((t) => t === 'null' || covers(ht, t));
        if (!narrowed) add('breaking', `${noun} type changed: ${what}`);
        else add(onlyNull ? 'additive' : 'potentially breaking', `${noun} type narrowed: ${what}`);
      }
    }

    // Enums are closed unions in the generated types. What code reads: a new value is one old code never
    // expected (an exhaustive switch's `never` check stops compiling, a run meets it); a removed value is one
    // code names (`case 'WARN':` no longer compiles, TS2678) — breaking; a new enum on a free string breaks
    // comparisons with other literals (TS2367). What code writes: the reverse.
    const be = enumOf(b);
    const he = enumOf(h);
    if (be && !he) add(req ? 'additive' : 'potentially breaking', `${noun} enum removed (any value now): ${label}`);
    else if (!be && he) add(req ? 'breaking' : 'potentially breaking', `${noun} enum added: ${label} (${list(he)})`);
    else if (be && he) {
      const gone = be.filter((v) => !he.some((w) => same(v, w)));
      const added = he.filter((v) => !be.some((w) => same(v, w)));
      if (gone.length) add('breaking', `${noun} enum narrowed: ${label} (removed ${list(gone)})`);
      if (added.length)
        add(req ? 'additive' : 'potentially breaking', `${noun} enum widened: ${label} (added ${list(added)})`);
    }

    // Constraints (not in the generated types, so no build changes): tighter input is refused by the SDK's own
    // pre-validation; looser output may break what code assumed.
    const constraint = (key, bv, hv, tighter) => {
      const what = `${label} ${key} ${show(bv)} → ${show(hv)}`;
      if (tighter === undefined) add(req ? 'breaking' : 'potentially breaking', `${noun} constraint changed: ${what}`);
      else if (tighter) add(req ? 'breaking' : 'additive', `${noun} constraint tightened: ${what}`);
      else add(req ? 'additive' : 'potentially breaking', `${noun} constraint relaxed: ${what}`);
    };
    for (const key of UPPER) {
      const [bv, hv] = [b[key], h[key]];
      if (same(bv, hv)) continue;
      if (typeof bv === 'boolean' || typeof hv === 'boolean') constraint(key, bv, hv, undefined);
      else constraint(key, bv, hv, bv === undefined || (hv !== undefined && hv < bv));
    }
    for (const key of LOWER) {
      const [bv, hv] = [b[key], h[key]];
      if (same(bv, hv)) continue;
      if (typeof bv === 'boolean' || typeof hv === 'boolean') constraint(key, bv, hv, undefined);
      else constraint(key, bv, hv, bv === undefined || (hv !== undefined && hv > bv));
    }
    for (const key of OTHER) {
      const [bv, hv] = [b[key], h[key]];
      // A format goes with its type: `integer/int32 → string` is one change, reported above.
      if (same(bv, hv) || (key === 'format' && typeText(bt) !== typeText(ht))) continue;
      if (key === 'uniqueItems') constraint(key, bv, hv, hv === true);
      else constraint(key, bv, hv, bv === undefined ? true : hv === undefined ? false : undefined);
    }

    // Object fields.
    const bp = b.properties ?? {};
    const hp = h.properties ?? {};
    const breq = new Set(b.required ?? []);
    const hreq = new Set(h.required ?? []);
    const names = new Set([...Object.keys(bp), ...Object.keys(hp), ...breq, ...hreq]);
    for (const name of names) {
      const inB = Object.hasOwn(bp, name) || breq.has(name);
      const inH = Object.hasOwn(hp, name) || hreq.has(name);
      fieldChange(
        add,
        dir,
        'field',
        `${label}.${name}`,
        inB && { required: breq.has(name) },
        inH && { required: hreq.has(name) },
      );
      if (Object.hasOwn(bp, name) && Object.hasOwn(hp, name))
        out.push(...this.compare(bp[name], hp[name], `${label}.${name}`, dir));
    }
    const bap = b.additionalProperties;
    const hap = h.additionalProperties;
    if (!same(bap, hap)) {
      const isSchema = (ap) => typeof ap === 'object' && ap !== null;
      const open = (ap) => ap === undefined || ap === true || isSchema(ap);
      if (open(bap) && hap === false) {
        // An explicit `true`/schema is an index signature in the generated type: code reading other keys
        // through it stops compiling once it is gone. An absent one generates no signature.
        const readerBreaks = bap !== undefined;
        add(
          req ? 'breaking' : readerBreaks ? 'potentially breaking' : 'additive',
          req ? `${noun} no longer accepts other fields: ${label}` : `${noun} no longer carries other fields: ${label}`,
        );
      } else if (bap === false && open(hap)) {
        add(
          req ? 'additive' : 'potentially breaking',
          req ? `${noun} accepts other fields: ${label}` : `${noun} may carry other fields: ${label}`,
        );
      } else if (isSchema(bap) || isSchema(hap)) {
        // `true`/absent is the empty schema: compare the values' schemas.
        out.push(...this.compare(isSchema(bap) ? bap : {}, isSchema(hap) ? hap : {}, `${label}{}`, dir));
      }
    }

    // Arrays.
    if (b.items !== undefined && h.items !== undefined) out.push(...this.compare(b.items, h.items, `${label}[]`, dir));

    // Compositions, member by member.
    for (const key of ['oneOf', 'anyOf', 'allOf']) {
      const bl = b[key] ?? [];
      const hl = h[key] ?? [];
      for (let i = 0; i < Math.min(bl.length, hl.length); i++)
        out.push(...this.compare(bl[i], hl[i], `${label}.${key}[${i}]`, dir));
      // More alternatives: a request accepts more, a response may send a shape old code does not expect.
      // Fewer alternatives in a response: the wire is fine, but code narrowing to the gone one may not compile.
      // More allOf members: more constraints on a request, more guarantees on a response.
      const grows = key === 'allOf' ? (req ? 'breaking' : 'additive') : req ? 'additive' : 'potentially breaking';
      const shrinks = key === 'allOf' ? (req ? 'additive' : 'breaking') : req ? 'breaking' : 'potentially breaking';
      if (hl.length > bl.length) add(grows, `${noun} ${key} member added: ${label} (${hl.length - bl.length})`);
      if (bl.length > hl.length) add(shrinks, `${noun} ${key} member removed: ${label} (${bl.length - hl.length})`);
    }
    return out;
  }
}

/**
 * A named field, parameter or header that appears, disappears or changes whether it is required.
 * @param {(cls: ChangeClass, message: string) => void} add
 * @param {Dir} dir
 * @param {false | {required: boolean}} b
 * @param {false | {required: boolean}} h
 */
export function fieldChange(add, dir, noun, where, b, h) {
  const what = `${NOUN[dir]} ${noun}`;
  if (b && !h) add('breaking', `${what} removed: ${where}`);
  else if (!b && h) {
    if (writes(dir))
      add(
        h.required ? 'breaking' : 'additive',
        h.required ? `${what} newly required: ${where}` : `optional ${what} added: ${where}`,
      );
    else add('additive', `${what} added: ${where}`);
  } else if (b && h && b.required !== h.required) {
    // Code reading a field that is no longer required meets `undefined`, and `x.y.z` stops compiling (strict).
    if (writes(dir))
      add(h.required ? 'breaking' : 'additive', `${what} ${h.required ? 'newly required' : 'now optional'}: ${where}`);
    else
      add(
        h.required ? 'additive' : 'breaking',
        `${what} ${h.required ? 'now always present' : 'no longer required'}: ${where}`,
      );
  }
}
