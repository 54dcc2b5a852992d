// Small helpers of the spec diff: deep equality, local `$ref`s, value printing.

/** The HTTP methods an OpenAPI path item may hold. */
export const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/** Deep equality ignoring key order. */
export function same(a, b) {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) return a.length === b.length && a.every((x, i) => same(x, b[i]));
  const ka = Object.keys(a);
  return ka.length === Object.keys(b).length && ka.every((k) => Object.hasOwn(b, k) && same(a[k], b[k]));
}

/** Follows local `$ref`s; returns the target and, for `#/components/schemas/X`, its name. */
export function deref(doc, node) {
  let name;
  for (let hops = 0; node && typeof node === 'object' && typeof node.$ref === 'string'; hops++) {
    if (hops > 50) throw new Error(`$ref loop at ${node.$ref}`);
    const ref = node.$ref;
    if (!ref.startsWith('#/')) throw new Error(`only local $refs are supported, found ${ref}`);
    const parts = ref
      .slice(2)
      .split('/')
      .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
    if (parts[0] === 'components' && parts[1] === 'schemas') name = parts[2];
    node = parts.reduce((n, p) => (n == null ? undefined : n[p]), doc);
    if (node === undefined) throw new Error(`unresolved $ref ${ref}`);
  }
  return { node, name };
}

/** A value as the report prints it. */
export const show = (v) => (v === undefined ? 'none' : typeof v === 'string' ? v : JSON.stringify(v));
export const list = (xs) => xs.map(show).join(', ');
