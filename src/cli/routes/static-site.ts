// A static site (HTML files, no package.json): `x/index.html` serves `/x`, `/x/` and `/x/index.html`;
// `x/y.html` serves `/x/y.html` (as a plain file server does: no extension is added or dropped).
import type { FileRouter } from './types.js';

/**
 * The paths a file of the site's folder serves.
 * @example staticSiteRouter('docs/index.html') // [{ segments: [docs], index: true }, { segments: [docs, index.html] }]
 */
export const staticSiteRouter: FileRouter = (file) => {
  if (!/\.html$/i.test(file)) return [];
  const parts = file.split('/');
  const segments = parts.map((value) => ({ kind: 'static' as const, value }));
  if (parts[parts.length - 1] !== 'index.html') return [{ segments }];
  return [{ segments: segments.slice(0, -1), index: true }, { segments }];
};
