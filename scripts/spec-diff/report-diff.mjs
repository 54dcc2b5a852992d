// Changes between two API Extractor reports (api/*.api.md), classified the way spec:diff classifies the
// description: by what users' code does with the type. A report is read as a tree (declaration → member →
// nested member); a member is judged by the side it is on:
//   written by users (request bodies and parameters; the SDK's options objects and interfaces users implement):
//     a new required member or one that becomes required is breaking, one that becomes optional is additive;
//   read by users (responses, webhook payloads, returned types): a new member, required or not, is additive,
//     one that becomes optional is breaking;
//   either side: a member removed, or its type changed other than by literals, is breaking; a closed literal
//     union that loses a value is breaking, one that gains a value is potentially breaking when read (an
//     exhaustive switch's `never` check) and additive when written.
// The generated record types (`components.schemas.X`) take their side from the description (directions.mjs);
// the SDK's own types take it from the report: a type named in a function's or method's parameters (and the
// types its members use) is written by users, any other is read.
import { RANK } from './bump.mjs';

/** @typedef {import('./bump.mjs').ChangeClass} ChangeClass */
/** @typedef {import('./directions.mjs').Side} Side */
/** @typedef {{ kind: 'member' | 'method' | 'line', key: string, scope: string[], name: string, optional: boolean, type: string, text: string }} Entry */

const DECL =
  /^(?:export\s+)?(?:declare\s+)?(?:default\s+)?(?:abstract\s+)?(?:interface|class|type|namespace|enum|function|const|let)\s+([\w$]+)/;
const MEMBER =
  /^(?:(?:readonly|static|protected|public|abstract|get|set)\s+)*(\[[^\]]*\]|"[^"]*"|'[^']*'|[\w$]+)(\?)?(\(|<|: )/;
const ALIAS = /^(?:export\s+)?(?:declare\s+)?type\s+([\w$]+)\s*=\s*(.*);$/;

/** The lines of the report's ```ts block (the whole text when there is none). */
function codeLines(text) {
  const lines = text.split('\n');
  const start = lines.findIndex((l) => l.startsWith('```ts'));
  const body = start >= 0 ? lines.slice(start + 1) : lines;
  const end = body.findIndex((l) => l.startsWith('```'));
  return (end >= 0 ? body.slice(0, end) : body).map((l) => l.trim()).filter((l) => l && !l.startsWith('//'));
}

const count = (line, ch) => line.split(ch).length - 1;

/** @returns {Entry[]} every declaration, member and other line, with the names of the scopes it is in */
function parseReport(text) {
  /** @type {Entry[]} */
  const entries = [];
  /** @type {string[]} */
  const stack = [];
  for (const line of codeLines(text)) {
    const scope = [...stack];
    const decl = DECL.exec(line);
    const alias = ALIAS.exec(line);
    const member = !decl && stack.length ? MEMBER.exec(line) : null;
    /** @type {Entry} */
    let entry;
    if (alias && !line.endsWith('{')) {
      // `export type X = …;` is judged like a member: a union that gains or loses a literal is not "any change".
      entry = { kind: 'member', key: alias[1], scope, name: alias[1], optional: false, type: alias[2], text: line };
    } else if (member) {
      const kind = member[3] === ': ' ? 'member' : 'method';
      const type = kind === 'member' ? line.slice(member[0].length).replace(/;$/, '') : line.replace(/;$/, '');
      entry = {
        kind,
        key: [...scope, member[1] + (kind === 'method' ? '()' : '')].join('.'),
        scope,
        name: member[1],
        optional: !!member[2],
        type,
        text: line,
      };
    } else {
      entry = {
        kind: 'line',
        key: [...scope, line].join(' ▸ '),
        scope,
        name: decl?.[1] ?? '',
        optional: false,
        type: '',
        text: line,
      };
    }
    entries.push(entry);
    const net = count(line, '{') - count(line, '}');
    for (let i = 0; i < net; i++) stack.push(entry.name || line);
    for (let i = 0; i < -net; i++) stack.pop();
  }
  return entries;
}

/** The text at parenthesis depth 1 of the first parameter list of a signature line (nested lists left out). */
function parameterText(line) {
  const open = line.indexOf('(');
  if (open < 0) return '';
  let depth = 0;
  let out = '';
  for (let i = open; i < line.length; i++) {
    const ch = line[i];
    if (ch === '(') depth++;
    else if (ch === ')') {
      depth--;
      if (depth === 0) break;
    } else if (depth === 1) out += ch;
  }
  return out;
}
const typeNames = (text) => [...text.matchAll(/\b([A-Z][\w$]*)\b/g)].map((m) => m[1]);
// A callback's parameters are what users' code receives: leave function types out when following a member.
const withoutCallbacks = (type) => {
  let t = type;
  for (let prev = ''; prev !== t; ) [prev, t] = [t, t.replace(/\([^()]*\)/g, '')];
  return t;
};

/**
 * The SDK's own types that users write: named in the parameters of a function, method or constructor, and,
 * following members, what such a type's members use.
 * @param {Entry[]} entries
 */
function writtenTypes(entries) {
  const names = new Set();
  for (const e of entries) {
    const signature =
      e.kind === 'method' || (e.kind === 'line' && /^(?:export\s+)?(?:declare\s+)?function\s/.test(e.text));
    if (signature) for (const n of typeNames(parameterText(e.text))) names.add(n);
  }
  for (let size = -1; size !== names.size; ) {
    size = names.size;
    for (const e of entries) {
      if (e.kind === 'line' || !names.has(e.scope[0] ?? e.name)) continue;
      for (const n of typeNames(e.kind === 'method' ? parameterText(e.text) : withoutCallbacks(e.type))) names.add(n);
    }
  }
  return names;
}

/**
 * The sides an entry is on: a generated record type's from the description (both when unknown: the safe side),
 * the SDK's own from the report.
 * @param {Entry} e @param {Map<string, Set<Side>> | undefined} sides @param {Set<string>} written
 * @returns {Set<Side>}
 */
function sidesOf(e, sides, written) {
  const path = [...e.scope, e.name];
  if (path[0] === 'components') {
    if (path[1] === 'schemas' && path[2]) return sides?.get(path[2]) ?? new Set(['request', 'response']);
    if (path[1] === 'parameters' || path[1] === 'requestBodies') return new Set(['request']);
    if (path[1] === 'headers' || path[1] === 'responses') return new Set(['response']);
  }
  return new Set([written.has(path[0]) ? 'request' : 'response']);
}

/** The literals of a union of string literals, and whether it is open (`| (string & {})`); undefined otherwise. */
function literalUnion(type) {
  const parts = type.split(' | ').map((p) => p.trim());
  const open = parts.some((p) => p === '(string & {})' || p === 'string');
  const literals = parts.filter((p) => /^(["'])[^"']*\1$/.test(p)).map((p) => p.slice(1, -1));
  if (
    literals.length + (open ? parts.filter((p) => p === '(string & {})' || p === 'string').length : 0) !==
      parts.length ||
    literals.length === 0
  )
    return undefined;
  return { literals, open };
}

/**
 * Classifies the change of one member in the sides it is on (the worse class wins). `declaration`: the entry
 * is a generated record type itself (`components.schemas.X`), not one of its fields.
 * @returns {{ class: ChangeClass, message: string } | undefined}
 */
function memberChange(b, a, sideSet, declaration) {
  const key = (a ?? b).key;
  const where = [...sideSet].map((s) => (s === 'request' ? 'written by users' : 'read by users')).join(' and ');
  /** @type {{ class: ChangeClass, message: string }[]} */
  const found = [];
  for (const side of sideSet) {
    const writes = side === 'request';
    const add = (/** @type {ChangeClass} */ cls, /** @type {string} */ what) =>
      found.push({ class: cls, message: `${key}: ${what} (${where})` });
    if (b && !a) add('breaking', 'removed');
    else if (!b && a) {
      // A new record type (`components.schemas.X`) is a declaration, not a field anybody has to fill in.
      if (writes && !a.optional && !declaration)
        add('breaking', a.kind === 'method' ? 'new method users must implement' : 'new required member');
      else add('additive', a.optional ? 'new optional member' : 'new member');
    } else if (b && a) {
      if (b.optional !== a.optional) {
        if (writes) add(a.optional ? 'additive' : 'breaking', a.optional ? 'now optional' : 'now required');
        else
          add(
            a.optional ? 'breaking' : 'additive',
            a.optional ? 'now optional (may be undefined)' : 'now always present',
          );
      }
      if (b.type !== a.type) {
        const bu = literalUnion(b.type);
        const au = literalUnion(a.type);
        if (bu && au && !(bu.open && !au.open)) {
          const gone = bu.literals.filter((l) => !au.literals.includes(l));
          const added = au.literals.filter((l) => !bu.literals.includes(l));
          // An open union (`| (string & {})`) keeps every literal assignable and comparable.
          if (gone.length)
            add(
              au.open ? 'additive' : 'breaking',
              `value${gone.length > 1 ? 's' : ''} ${gone.map((l) => `"${l}"`).join(', ')} removed`,
            );
          if (added.length)
            add(
              writes || au.open ? 'additive' : 'potentially breaking',
              `value${added.length > 1 ? 's' : ''} ${added.map((l) => `"${l}"`).join(', ')} added`,
            );
        } else if (b.kind === 'method' || a.kind === 'method')
          add('breaking', `signature changed: ${b.text} → ${a.text}`);
        else add('breaking', `type changed: ${b.type} → ${a.type}`);
      }
    }
  }
  return found.sort((x, y) => RANK[y.class] - RANK[x.class])[0];
}

/**
 * The classified changes between two reports. `sides` (from the descriptions, see schemaSides) tells which
 * generated record types users write and which they read; without it both are assumed (the safe side).
 * @param {string} before @param {string} after @param {{ sides?: Map<string, Set<Side>> }} [options]
 * @returns {{ class: ChangeClass | undefined, changes: { class: ChangeClass, message: string }[], removed: string[], added: string[] }}
 */
export function classifyReportChange(before, after, { sides } = {}) {
  const b = parseReport(before);
  const a = parseReport(after);
  const written = new Set([...writtenTypes(b), ...writtenTypes(a)]);
  /** @type {{ class: ChangeClass, message: string }[]} */
  const changes = [];
  const byKey = (/** @type {Entry[]} */ entries) =>
    new Map(entries.filter((e) => e.kind !== 'line').map((e) => [e.key, e]));
  const bm = byKey(b);
  const am = byKey(a);
  const declared = (/** @type {Entry[]} */ entries) =>
    new Set(entries.filter((e) => e.scope.length === 0 && e.name).map((e) => e.name));
  const [bd, ad] = [declared(b), declared(a)];
  for (const key of new Set([...bm.keys(), ...am.keys()])) {
    const be = bm.get(key);
    const ae = am.get(key);
    if (be && ae && be.text === ae.text) continue;
    const entry = /** @type {Entry} */ (ae ?? be);
    // A member of a declaration (or of a member) that is itself new or gone is reported with it.
    const top = entry.scope[0];
    if (top !== undefined && bd.has(top) !== ad.has(top)) continue;
    const parent = entry.scope.join('.');
    if (entry.scope.length >= 2 && bm.has(parent) !== am.has(parent)) continue;
    const change = memberChange(
      be,
      ae,
      sidesOf(entry, sides, written),
      entry.scope.length === 2 && top === 'components',
    );
    if (change) changes.push(change);
  }
  // Other lines (declarations, overloads, closing braces): a line gone is breaking, a new one additive.
  const lines = (/** @type {Entry[]} */ entries) =>
    entries.filter((e) => e.kind === 'line').reduce((m, e) => m.set(e.key, (m.get(e.key) ?? 0) + 1), new Map());
  const bl = lines(b);
  const al = lines(a);
  const removed = [...bl].filter(([k, n]) => (al.get(k) ?? 0) < n).map(([k]) => k);
  const added = [...al].filter(([k, n]) => (bl.get(k) ?? 0) < n).map(([k]) => k);
  for (const k of removed)
    if (!/^[\s};]*$/.test(k.split(' ▸ ').at(-1) ?? '')) changes.push({ class: 'breaking', message: `removed: ${k}` });
  for (const k of added)
    if (!/^[\s};]*$/.test(k.split(' ▸ ').at(-1) ?? '')) changes.push({ class: 'additive', message: `added: ${k}` });
  changes.sort((x, y) => RANK[y.class] - RANK[x.class]);
  return { class: changes[0]?.class, changes, removed, added };
}
