// Which named schemas of a description users' code writes and which it reads, so that the API report step can
// classify a generated record type's change the way spec:diff classifies the schema's.
import { deref, METHODS } from './util.mjs';

/** @typedef {'request' | 'response'} Side */

/**
 * Every `components.schemas` name reachable from what the SDK sends ("request": parameters, request bodies,
 * a webhook receiver's answers) and from what users read ("response": responses, response headers, a webhook's
 * payload and headers), through `$ref`s, properties, items and compositions. A schema may be on both sides.
 * @returns {Map<string, Set<Side>>}
 */
export function schemaSides(doc) {
  /** @type {Map<string, Set<Side>>} */
  const sides = new Map();
  /** @param {unknown} node @param {Side} side @param {Set<unknown>} seen */
  const visit = (node, side, seen = new Set()) => {
    if (!node || typeof node !== 'object' || seen.has(node)) return;
    seen.add(node);
    const { node: target, name } = deref(doc, node);
    if (name) {
      const set = sides.get(name) ?? new Set();
      set.add(side);
      sides.set(name, set);
    }
    if (!target || typeof target !== 'object') return;
    const s = /** @type {Record<string, any>} */ (target);
    for (const child of Object.values(s.properties ?? {})) visit(child, side, seen);
    for (const key of ['items', 'additionalProperties', 'not'])
      if (s[key] && typeof s[key] === 'object') visit(s[key], side, seen);
    for (const key of ['oneOf', 'anyOf', 'allOf', 'prefixItems'])
      for (const child of s[key] ?? []) visit(child, side, seen);
  };
  const contentOf = (/** @type {any} */ holder) =>
    Object.values(deref(doc, holder).node?.content ?? {}).map((m) => /** @type {any} */ (m).schema);
  const visitOperation = (/** @type {any} */ op, /** @type {any[]} */ shared, /** @type {boolean} */ webhook) => {
    // A call's parameters and body are written by users' code; a webhook's are read by their receivers.
    /** @type {Side} */ const inbound = webhook ? 'response' : 'request';
    /** @type {Side} */ const outbound = webhook ? 'request' : 'response';
    for (const p of [...shared, ...(op.parameters ?? [])]) visit(deref(doc, p).node?.schema, inbound);
    if (op.requestBody) for (const schema of contentOf(op.requestBody)) visit(schema, inbound);
    for (const r of Object.values(op.responses ?? {})) {
      for (const schema of contentOf(r)) visit(schema, outbound);
      for (const h of Object.values(deref(doc, r).node?.headers ?? {})) visit(deref(doc, h).node?.schema, outbound);
    }
  };
  for (const [items, webhook] of /** @type {const} */ ([
    [doc.paths, false],
    [doc.webhooks, true],
  ])) {
    for (const item0 of Object.values(items ?? {})) {
      const item = deref(doc, item0).node ?? {};
      for (const m of METHODS) if (item[m]) visitOperation(item[m], item.parameters ?? [], webhook);
    }
  }
  return sides;
}

/** Merges the sides of two descriptions (a schema's side at the base and now). */
export function mergeSides(...maps) {
  /** @type {Map<string, Set<Side>>} */
  const out = new Map();
  for (const map of maps) for (const [name, set] of map) out.set(name, new Set([...(out.get(name) ?? []), ...set]));
  return out;
}
