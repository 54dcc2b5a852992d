// Docs-only changes: descriptions, examples, deprecation marks, wherever both documents have the same object.
import { METHODS, same } from './util.mjs';

/** @typedef {import('./bump.mjs').ChangeClass} ChangeClass */

// `operationId` is not among them: it reaches users (diff.mjs classifies it).
const DOC_KEYS = new Set([
  'description',
  'summary',
  'title',
  'example',
  'examples',
  'externalDocs',
  'deprecated',
  'tags',
  'x-not-shown',
]);
// Keys whose values are maps of names (a property called `title` is a field, not a keyword).
const MAP_KEYS = new Set([
  'paths',
  'webhooks',
  'properties',
  'patternProperties',
  'responses',
  'content',
  'headers',
  'schemas',
  'parameters',
  'requestBodies',
  'securitySchemes',
  'links',
  'callbacks',
  'variables',
  'encoding',
  '$defs',
  'definitions',
  'pathItems',
]);

function docsLabel(path) {
  if ((path[0] === 'paths' || path[0] === 'webhooks') && path.length >= 3 && METHODS.includes(path[2])) {
    const head = path[0] === 'paths' ? `${path[2].toUpperCase()} ${path[1]}` : `webhook ${path[1]}`;
    return [head, ...path.slice(3)].join(' ');
  }
  if (path[0] === 'paths' || path[0] === 'webhooks') return path.slice(1).join(' ');
  return path.join('.');
}

/** Description, example and deprecation changes wherever both documents have the same object. */
export function docsChanges(base, head) {
  /** @type {{class: ChangeClass, message: string}[]} */
  const out = [];
  const walk = (b, h, path, isMap) => {
    if (!b || !h || typeof b !== 'object' || typeof h !== 'object') return;
    if (Array.isArray(b) && Array.isArray(h)) {
      // Parameters by name, so inserting one does not shift the others.
      const keyOf = (p, i) => (p?.name ? `${p.in}.${p.name}` : (p?.$ref ?? String(i)));
      const hm = new Map(h.map((p, i) => [keyOf(p, i), p]));
      for (const [i, p] of b.entries()) walk(p, hm.get(keyOf(p, i)), [...path, keyOf(p, i)], false);
      return;
    }
    const top = path.length === 0;
    for (const key of new Set([...Object.keys(b), ...Object.keys(h)])) {
      const docKey =
        !isMap &&
        (DOC_KEYS.has(key) ||
          (key.startsWith('x-') && key !== 'x-plan-features') ||
          (top && ['info', 'servers', 'openapi', 'jsonSchemaDialect'].includes(key)));
      if (docKey) {
        if (same(b[key], h[key])) continue;
        const where = docsLabel(path) || 'document';
        if (key === 'deprecated')
          out.push({ class: 'docs', message: `${h[key] ? 'deprecated' : 'no longer deprecated'}: ${where}` });
        else
          out.push({
            class: 'docs',
            message: `${key === 'examples' ? 'example' : key} ${!Object.hasOwn(b, key) ? 'added' : !Object.hasOwn(h, key) ? 'removed' : 'changed'}: ${where}`,
          });
        continue;
      }
      if (!Object.hasOwn(b, key) || !Object.hasOwn(h, key)) continue;
      const childIsMap = MAP_KEYS.has(key) || (path.length === 1 && path[0] === 'components');
      walk(b[key], h[key], [...path, key], isMap ? false : childIsMap);
    }
  };
  walk(base, head, [], false);
  return out;
}
