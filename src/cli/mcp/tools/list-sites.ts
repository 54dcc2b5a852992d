// list_sites: the organisation's sites, so an agent knows which pages it may check.
import { safeCopy } from '../../io/safe-text.js';
import { READ_TIMEOUT_SCHEMA } from '../input.js';
import { cap, one, result } from '../results.js';
import { defineTool } from '../tool.js';
import { OUTPUT_SCHEMAS } from '../schemas.js';

/** Sites one result lists. */
const SITES_LIMIT = 100;

/** `list_sites`: `{}` → `{ sites: [{ id, name, rootUrl, verified }], omitted }`. */
export const listSites = defineTool<{ timeoutMs?: number }>({
  name: 'list_sites',
  title: 'List sites',
  description:
    "Lists the organisation's registered sites: id, name, root URL and whether the domain is verified. Pages given to check_pages must be on one verified site; scan_page takes a page of any registered site.",
  readOnly: true,
  inputSchema: { type: 'object', properties: { timeoutMs: READ_TIMEOUT_SCHEMA }, additionalProperties: false },
  outputSchema: OUTPUT_SCHEMAS.list_sites!,
  needs: () => ({ scopes: ['sites:read'], features: ['API_ACCESS'] }),
  async run(_input, ctx) {
    const sites = safeCopy(await ctx.client.sites.list({ signal: ctx.signal }), ctx.secrets);
    const { shown, omitted } = cap(sites, SITES_LIMIT);
    const listed = shown.map((s) => ({ id: s.id, name: s.name, rootUrl: s.rootUrl, verified: s.verified }));
    const verified = listed.filter((s) => s.verified).length;
    const lines = listed.map(
      (s) =>
        `- ${one(s.name ?? '?')} ${one(s.rootUrl ?? '?')} (${s.verified ? 'verified' : 'not verified'}) id ${one(s.id ?? '?')}`,
    );
    return result(
      `${sites.length} site${sites.length === 1 ? '' : 's'} (${verified} verified${omitted ? `; the first ${listed.length} listed, ${omitted} more not in this result (svc-a11y sites lists them all)` : ''}):\n${lines.join('\n')}`,
      { sites: listed, omitted },
    );
  },
});
