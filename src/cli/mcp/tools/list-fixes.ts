// list_fixes: the tracked fixes of a site (remediation items), so an agent has the ids verify_fix takes.
import { safeCopy } from '../../io/safe-text.js';
import { ID_SCHEMA, READ_TIMEOUT_SCHEMA } from '../input.js';
import { cap, one, result } from '../results.js';
import { defineTool } from '../tool.js';
import { OUTPUT_SCHEMAS } from '../schemas.js';

/** Fixes one result lists. */
const FIXES_LIMIT = 100;

interface Input {
  siteId: string;
  timeoutMs?: number;
}

/** `list_fixes`: `{ siteId }` → `{ fixes: [{ id, ruleId, impact, status, verifiable, componentLabel }], omitted }`. */
export const listFixes = defineTool<Input>({
  name: 'list_fixes',
  title: 'List tracked fixes',
  description:
    "Lists a site's tracked fixes (remediation items): id, rule, impact, status, whether it can be verified, and the component it is in. verify_fix takes the id of one that is verifiable.",
  readOnly: true,
  inputSchema: {
    type: 'object',
    properties: {
      siteId: { ...ID_SCHEMA, description: 'A site id (list_sites).' },
      timeoutMs: READ_TIMEOUT_SCHEMA,
    },
    required: ['siteId'],
    additionalProperties: false,
  },
  outputSchema: OUTPUT_SCHEMAS.list_fixes!,
  needs: () => ({ scopes: ['sites:read'], features: ['API_ACCESS'] }),
  async run(input, ctx) {
    ctx.working(`siteId ${input.siteId}`);
    const all = safeCopy(await ctx.client.sites.listFixes(input.siteId, { signal: ctx.signal }), ctx.secrets);
    const { shown, omitted } = cap(all, FIXES_LIMIT);
    const fixes = shown.map((f) => ({
      id: f.id,
      ruleId: f.ruleId,
      impact: f.impact,
      status: f.status,
      verifiable: f.verifiable,
      componentLabel: f.componentLabel,
    }));
    const lines = fixes.map(
      (f) =>
        `- [${one(f.impact ?? '?', 20)}] ${one(f.ruleId ?? '?', 80)}${f.componentLabel ? ` in ${one(f.componentLabel)}` : ''}: ${one(f.status ?? '?', 40)}, ${f.verifiable ? 'verifiable' : 'not verifiable'} (id ${one(f.id)})`,
    );
    const verifiable = fixes.filter((f) => f.verifiable).length;
    return result(
      [
        `${all.length} tracked fix${all.length === 1 ? '' : 'es'} of site ${input.siteId} (${verifiable} verifiable${omitted ? `; ${omitted} more not in this result` : ''}):`,
        ...lines,
        ...(verifiable ? ['verify_fix with {"remediationItemId": "<id>"} re-checks a verifiable one.'] : []),
      ].join('\n'),
      { fixes, omitted },
    );
  },
});
