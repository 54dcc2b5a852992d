// Reading one sitemap document (sitemaps.org protocol 0.9): a `<urlset>` of pages or a `<sitemapindex>` of further
// sitemaps, each entry's `<loc>`. The XML is read by fast-xml-parser (bundled into the CLI only) with entity
// processing off, and a document that declares a DOCTYPE or entities is refused before parsing: a sitemap never
// needs one, and refusing it removes every entity-expansion attack (billion laughs, external entities) at its root.
import { XMLParser, XMLValidator } from 'fast-xml-parser';

/** What one sitemap document lists. */
export interface SitemapDocument {
  /** `urlset`: pages; `sitemapindex`: further sitemaps. */
  kind: 'urlset' | 'sitemapindex';
  /** Each entry's `<loc>`, trimmed, with XML character references decoded, in document order. */
  locs: string[];
}

/**
 * Most entries one document may list: the protocol's own limit (50,000 URLs per sitemap, 50,000 sitemaps per
 * index).
 */
const MAX_SITEMAP_ENTRIES = 50_000;

/** A document that is not a sitemap this reader accepts: the message says why (the caller names the document). */
export class SitemapFormatError extends Error {
  override name = 'SitemapFormatError';
}

// `<!DOCTYPE` or `<!ENTITY` anywhere (case-insensitive, as some parsers accept either case).
const DECLARATIONS = /<!\s*(doctype|entity)\b/i;

// The five predefined entities and numeric character references: the only references a document without a
// DTD can hold. Anything else is left as written (no lookup of HTML entity names).
const PREDEFINED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
function decodeReferences(text: string): string {
  return text.replace(/&(#x[0-9a-fA-F]{1,6}|#[0-9]{1,7}|amp|lt|gt|quot|apos);/g, (whole, ref: string) => {
    if (!ref.startsWith('#')) return PREDEFINED[ref]!;
    const code = ref[1] === 'x' ? Number.parseInt(ref.slice(2), 16) : Number.parseInt(ref.slice(1), 10);
    return code > 0 && code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff) ? String.fromCodePoint(code) : whole;
  });
}

const clip = (text: string) => {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > 120 ? `${line.slice(0, 119)}…` : line;
};

const parser = new XMLParser({
  // Off: the parser replaces no entity, so no declaration (refused above anyway) can expand.
  processEntities: false,
  htmlEntities: false,
  ignoreAttributes: true,
  ignoreDeclaration: true,
  ignorePiTags: true,
  // `<sm:urlset xmlns:sm=…>` is the same document as `<urlset xmlns=…>`.
  removeNSPrefix: true,
  parseTagValue: false,
  trimValues: true,
  isArray: (name) => name === 'url' || name === 'sitemap',
});

/**
 * Reads a sitemap document.
 * @throws SitemapFormatError when it declares a DOCTYPE or entities, is not well-formed XML, is neither a
 * `urlset` nor a `sitemapindex`, or lists more than {@link MAX_SITEMAP_ENTRIES} entries
 * @example parseSitemap('<urlset><url><loc>https://a.example/?a=1&amp;b=2</loc></url></urlset>').locs // ['https://a.example/?a=1&b=2']
 */
export function parseSitemap(text: string): SitemapDocument {
  if (DECLARATIONS.test(text))
    throw new SitemapFormatError(
      'declares a DOCTYPE or entities, which a sitemap never needs (refused: entity expansion is off)',
    );
  const valid = XMLValidator.validate(text);
  // The validator's message may quote the document (a whole stack of open tags): clipped, on one line.
  if (valid !== true)
    throw new SitemapFormatError(
      `is not well-formed XML (line ${valid.err.line}, column ${valid.err.col}: ${clip(valid.err.msg)})`,
    );
  let data: Record<string, unknown>;
  try {
    data = parser.parse(text) as Record<string, unknown>;
  } catch (error) {
    // e.g. a nesting too deep for the parser's recursion: refused, never a crash.
    throw new SitemapFormatError(`could not be read as XML (${error instanceof Error ? error.name : 'error'})`);
  }
  const kind = 'urlset' in data ? 'urlset' : 'sitemapindex' in data ? 'sitemapindex' : undefined;
  if (kind === undefined)
    throw new SitemapFormatError('is neither a <urlset> nor a <sitemapindex> (sitemaps.org protocol)');
  const root = data[kind];
  const entries =
    (root && typeof root === 'object'
      ? (root as Record<string, unknown>)[kind === 'urlset' ? 'url' : 'sitemap']
      : undefined) ?? [];
  if (!Array.isArray(entries)) throw new SitemapFormatError(`has a malformed <${kind}>`);
  if (entries.length > MAX_SITEMAP_ENTRIES)
    throw new SitemapFormatError(`lists ${entries.length} entries, more than the protocol's ${MAX_SITEMAP_ENTRIES}`);
  const locs: string[] = [];
  for (const entry of entries) {
    const loc = entry && typeof entry === 'object' ? (entry as Record<string, unknown>).loc : undefined;
    // An entry without a <loc> names nothing to check; the protocol requires one, so it is skipped, not guessed.
    if (typeof loc === 'string' && loc.trim() !== '') locs.push(decodeReferences(loc.trim()));
  }
  return { kind, locs };
}
