// Mutations of openapi.yaml, one or more per rule of scripts/spec-diff's table (and at least two per class).
// Each edits the parsed document in place and throws when its target is gone, so a reworked description fails
// the fixture test loudly instead of turning a mutation into a no-op. `prepare` (when present) edits base and
// head alike first, for rules whose "before" the description does not hold today (an anonymous operation).
// `semver` is the bump from 1.0 on; `pre1` before 1.0. `compile` marks the items whose effect is on TypeScript
// builds: test/spec-diff/compile.test.ts regenerates a scratch copy and asserts `tsc` fails, naming `expect`.

/** @param {unknown} value @param {string} what */
function must(value, what) {
  if (value === undefined || value === null) throw new Error(`mutation target missing in openapi.yaml: ${what}`);
  return value;
}
/** @param {any} doc @param {string} name */
const schema = (doc, name) => must(doc.components?.schemas?.[name], `components.schemas.${name}`);
/** @param {any} doc @param {string} path @param {string} method */
const operation = (doc, path, method) => must(doc.paths?.[path]?.[method], `${method.toUpperCase()} ${path}`);
/** @param {any} obj @param {string} key */
const prop = (obj, key) => must(obj.properties?.[key], `property ${key}`);
/** @param {any} doc */
const webhook = (doc) => must(doc.webhooks?.['scan_run.completed']?.post, 'webhook scan_run.completed');

/**
 * Renames path parameter `{from}` of `path` to `{to}` in place (same URL), as a new description would.
 * @param {any} doc @param {string} path @param {string} from @param {string} to
 */
function renamePathParameter(doc, path, from, to) {
  const item = must(doc.paths?.[path], `path ${path}`);
  const renamed = path.replace(`{${from}}`, `{${to}}`);
  for (const op of Object.values(item)) {
    if (!op || typeof op !== 'object' || !Array.isArray(op.parameters)) continue;
    op.parameters = op.parameters.map((/** @type {any} */ p) =>
      p.$ref === '#/components/parameters/Id' && from === 'id'
        ? {
            name: to,
            in: 'path',
            required: true,
            description: 'Resource id (UUID).',
            schema: { type: 'string', format: 'uuid' },
          }
        : p,
    );
  }
  // Same position among the paths (a new key would move to the end: order is not meaning, but keep diffs small).
  const entries = Object.entries(doc.paths).map(([k, v]) => (k === path ? [renamed, v] : [k, v]));
  doc.paths = Object.fromEntries(entries);
}

/**
 * @typedef {{ name: string, class: 'breaking' | 'potentially breaking' | 'additive' | 'docs' | 'none',
 *   expect: RegExp, semver: 'major' | 'minor' | 'patch' | 'none', pre1: 'minor' | 'patch' | 'none',
 *   prepare?: (doc: any) => void, mutate: (doc: any) => void,
 *   compile?: { expect: RegExp, src?: Record<string, (text: string) => string>, consumer?: string } }} Mutation
 */

/** @type {Mutation[]} */
export const mutations = [
  // ---------------------------------------------------------------- breaking
  {
    name: 'operation removed',
    class: 'breaking',
    expect: /operation removed: GET \/api\/v1\/sites\/\{id\}\/fixes/,
    semver: 'major',
    pre1: 'minor',
    mutate: (doc) => {
      must(doc.paths['/api/v1/sites/{id}/fixes'], 'path /api/v1/sites/{id}/fixes');
      delete doc.paths['/api/v1/sites/{id}/fixes'];
    },
  },
  {
    name: 'response field removed',
    class: 'breaking',
    expect: /response field removed: V1ScanResponse\.requestedUrl/,
    semver: 'major',
    pre1: 'minor',
    mutate: (doc) => {
      prop(schema(doc, 'V1ScanResponse'), 'requestedUrl');
      delete schema(doc, 'V1ScanResponse').properties.requestedUrl;
    },
  },
  {
    name: 'response field type changed',
    class: 'breaking',
    expect: /response type changed: V1ScanRunResponse\.totalViolations integer → string/,
    semver: 'major',
    pre1: 'minor',
    mutate: (doc) => {
      const p = prop(schema(doc, 'V1ScanRunResponse'), 'totalViolations');
      p.type = 'string';
      delete p.format;
    },
  },
  {
    name: 'response field made nullable',
    class: 'breaking',
    expect: /response type changed: V1SiteResponse\.name string → null \| string/,
    semver: 'major',
    pre1: 'minor',
    mutate: (doc) => {
      prop(schema(doc, 'V1SiteResponse'), 'name').type = ['string', 'null'];
    },
  },
  {
    name: 'response field no longer required',
    class: 'breaking',
    expect: /response field no longer required: V1CiCheckResponse\.status/,
    semver: 'major',
    pre1: 'minor',
    mutate: (doc) => {
      const s = schema(doc, 'V1CiCheckResponse');
      s.required = s.required.filter((/** @type {string} */ r) => r !== 'status');
    },
  },
  {
    name: 'request field type changed',
    class: 'breaking',
    expect: /request type changed: V1CreateCiCheckRequest\.setBaseline boolean → string/,
    semver: 'major',
    pre1: 'minor',
    mutate: (doc) => {
      prop(schema(doc, 'V1CreateCiCheckRequest'), 'setBaseline').type = 'string';
    },
  },
  {
    name: 'request field newly required',
    class: 'breaking',
    expect: /request field newly required: V1CreateCiCheckRequest\.failOn/,
    semver: 'major',
    pre1: 'minor',
    mutate: (doc) => {
      schema(doc, 'V1CreateCiCheckRequest').required.push('failOn');
    },
  },
  {
    name: 'new required request field',
    class: 'breaking',
    expect: /request field newly required: V1CreateScanRunRequest\.maxPages/,
    semver: 'major',
    pre1: 'minor',
    mutate: (doc) => {
      const s = schema(doc, 'V1CreateScanRunRequest');
      s.properties.maxPages = { type: 'integer', minimum: 1 };
      s.required.push('maxPages');
    },
  },
  {
    name: 'request enum narrowed',
    class: 'breaking',
    expect: /request enum narrowed: FailOn \(removed SERIOUS_OR_WORSE\)/,
    semver: 'major',
    pre1: 'minor',
    mutate: (doc) => {
      const s = schema(doc, 'FailOn');
      s.enum = s.enum.filter((/** @type {string} */ v) => v !== 'SERIOUS_OR_WORSE');
    },
  },
  {
    name: 'request constraint tightened',
    class: 'breaking',
    expect: /request constraint tightened: PageUrl maxLength 2048 → 1024/,
    semver: 'major',
    pre1: 'minor',
    mutate: (doc) => {
      schema(doc, 'PageUrl').maxLength = 1024;
    },
  },
  {
    name: 'required query parameter added',
    class: 'breaking',
    expect: /request parameter newly required: GET \/api\/v1\/sites\/\{id\}\/trend query\.standard/,
    semver: 'major',
    pre1: 'minor',
    mutate: (doc) => {
      operation(doc, '/api/v1/sites/{id}/trend', 'get').parameters.push({
        name: 'standard',
        in: 'query',
        required: true,
        schema: { type: 'string' },
      });
    },
  },
  {
    name: 'operation scope changed',
    class: 'breaking',
    expect: /security tightened: GET \/api\/v1\/sites bearerAuth\[sites:read\] → bearerAuth\[sites:admin\]/,
    semver: 'major',
    pre1: 'minor',
    mutate: (doc) => {
      operation(doc, '/api/v1/sites', 'get').security = [{ bearerAuth: ['sites:admin'] }];
    },
  },
  {
    name: 'operation needs another plan feature',
    class: 'breaking',
    expect: /plan features added: GET \/api\/v1\/scans\/\{id\} \(SCAN_HISTORY\)/,
    semver: 'major',
    pre1: 'minor',
    mutate: (doc) => {
      operation(doc, '/api/v1/scans/{id}', 'get')['x-plan-features'] = ['SCAN_HISTORY'];
    },
  },
  {
    name: 'success status changed',
    class: 'breaking',
    expect: /success response removed: POST \/api\/v1\/scans 202/,
    semver: 'major',
    pre1: 'minor',
    mutate: (doc) => {
      const responses = operation(doc, '/api/v1/scans', 'post').responses;
      responses['201'] = must(responses['202'], 'createScan 202');
      delete responses['202'];
    },
  },
  {
    name: 'operation needs the bearer scheme where it was anonymous',
    class: 'breaking',
    expect: /security tightened: GET \/api\/v1\/sites anonymous → bearerAuth\[sites:read\]/,
    semver: 'major',
    pre1: 'minor',
    prepare: (doc) => {
      operation(doc, '/api/v1/sites', 'get').security = [];
    },
    mutate: (doc) => {
      operation(doc, '/api/v1/sites', 'get').security = [{ bearerAuth: ['sites:read'] }];
    },
  },
  {
    name: 'response enum value removed',
    class: 'breaking',
    expect: /response enum narrowed: V1CiCheckResponse\.verdict \(removed FAIL\)/,
    semver: 'major',
    pre1: 'minor',
    mutate: (doc) => {
      const p = prop(schema(doc, 'V1CiCheckResponse'), 'verdict');
      p.enum = p.enum.filter((/** @type {string} */ v) => v !== 'FAIL');
    },
    // A user's exhaustive switch names the value: TS2678, "Type '"FAIL"' is not comparable to type '"PASS"'".
    compile: {
      expect: /consumer\.ts.*error TS2678: Type '"FAIL"' is not comparable/,
      consumer: `import type { CiCheck } from '../src/index.js';
export function label(check: CiCheck): string {
  switch (check.verdict) {
    case 'PASS':
      return 'passed';
    case 'FAIL':
      return 'failed';
    default:
      return 'pending';
  }
}
`,
    },
  },
  {
    name: 'CI check status value removed',
    class: 'breaking',
    expect: /response enum narrowed: V1CiCheckResponse\.status \(removed FAILED\)/,
    semver: 'major',
    pre1: 'minor',
    mutate: (doc) => {
      const p = prop(schema(doc, 'V1CiCheckResponse'), 'status');
      p.enum = p.enum.filter((/** @type {string} */ v) => v !== 'FAILED');
    },
  },
  {
    name: 'operationId renamed',
    class: 'breaking',
    expect:
      /operationId renamed: GET \/api\/v1\/sites listSites → listAllSites \(users see it in ResponseValidationError\.operationId\)/,
    semver: 'major',
    pre1: 'minor',
    mutate: (doc) => {
      operation(doc, '/api/v1/sites', 'get').operationId = 'listAllSites';
    },
    // The operation table is keyed by operationId: regenerated, it names the operation that has no row.
    compile: { expect: /src\/core\/operations\.ts.*listAllSites/ },
  },
  {
    name: 'operationId of a polled operation renamed',
    class: 'breaking',
    expect: /operationId renamed: GET \/api\/v1\/scans\/\{id\} getScan → readScan/,
    semver: 'major',
    pre1: 'minor',
    mutate: (doc) => {
      operation(doc, '/api/v1/scans/{id}', 'get').operationId = 'readScan';
    },
  },
  {
    name: 'webhook event removed',
    class: 'breaking',
    expect: /webhook event removed: scan_run\.completed \(receivers no longer get it\)/,
    semver: 'major',
    pre1: 'minor',
    mutate: (doc) => {
      must(doc.webhooks?.['scan_run.completed'], 'webhook scan_run.completed');
      delete doc.webhooks['scan_run.completed'];
    },
  },
  {
    name: 'webhook payload field removed',
    class: 'breaking',
    expect: /webhook field removed: WebhookEventBody\.scanRun/,
    semver: 'major',
    pre1: 'minor',
    prepare: (doc) => {
      schema(doc, 'WebhookEventBody').properties = {
        type: { type: 'string' },
        scanRun: { $ref: '#/components/schemas/V1ScanRunResponse' },
      };
    },
    mutate: (doc) => {
      delete schema(doc, 'WebhookEventBody').properties.scanRun;
    },
  },
  {
    name: 'webhook acknowledged only by 200',
    class: 'breaking',
    expect: /receiver answer no longer acknowledged: webhook scan_run\.completed 2XX/,
    semver: 'major',
    pre1: 'minor',
    mutate: (doc) => {
      const responses = webhook(doc).responses;
      must(responses['2XX'], 'webhook 2XX');
      delete responses['2XX'];
      responses['200'] = { description: 'Only 200 acknowledges the delivery.' };
    },
  },
  {
    name: 'webhook signature header removed',
    class: 'breaking',
    expect: /webhook header removed: webhook scan_run\.completed header\.x-svc-signature/,
    semver: 'major',
    pre1: 'minor',
    mutate: (doc) => {
      const params = webhook(doc).parameters;
      must(
        params.find((/** @type {any} */ p) => p.name === 'X-Svc-Signature'),
        'X-Svc-Signature',
      );
      webhook(doc).parameters = params.filter((/** @type {any} */ p) => p.name !== 'X-Svc-Signature');
    },
  },
  // ---------------------------------------------------------------- potentially breaking
  {
    name: 'response enum widened',
    class: 'potentially breaking',
    expect: /response enum widened: V1CiCheckResponse\.verdict \(added WARN\)/,
    semver: 'minor',
    pre1: 'minor',
    mutate: (doc) => {
      prop(schema(doc, 'V1CiCheckResponse'), 'verdict').enum.push('WARN');
    },
    // A user's exhaustive switch with a `never` check stops compiling; a non-exhaustive one keeps working.
    compile: {
      expect: /consumer\.ts.*error TS2322: Type '"WARN"' is not assignable to type 'never'/,
      consumer: `import type { CiCheck } from '../src/index.js';
export function label(check: CiCheck): string {
  const verdict = check.verdict;
  if (verdict === undefined) return 'pending';
  switch (verdict) {
    case 'PASS':
      return 'passed';
    case 'FAIL':
      return 'failed';
    default: {
      const unknown: never = verdict;
      return unknown;
    }
  }
}
`,
    },
  },
  {
    name: 'enum shared by request and response widened',
    class: 'potentially breaking',
    expect: /response enum widened: FailOn \(added ALL_SERIOUS\)/,
    semver: 'minor',
    pre1: 'minor',
    mutate: (doc) => {
      schema(doc, 'FailOn').enum.push('ALL_SERIOUS');
    },
  },
  {
    name: 'webhook event added',
    class: 'potentially breaking',
    expect: /webhook event added: scan\.completed/,
    semver: 'minor',
    pre1: 'minor',
    mutate: (doc) => {
      const next = structuredClone(webhook(doc));
      next.operationId = 'onScanCompleted';
      next.summary = 'A single-page scan reached a terminal outcome';
      doc.webhooks['scan.completed'] = { post: next };
    },
  },
  {
    name: 'response enum added on a free string',
    class: 'potentially breaking',
    expect: /response enum added: Checkpoint\.status \(PASSED, FAILED\)/,
    semver: 'minor',
    pre1: 'minor',
    mutate: (doc) => {
      prop(schema(doc, 'Checkpoint'), 'status').enum = ['PASSED', 'FAILED'];
    },
  },
  {
    name: 'response type narrowed (not only null)',
    class: 'potentially breaking',
    expect: /response type narrowed: V1SiteResponse\.name integer \| string → string/,
    semver: 'minor',
    pre1: 'minor',
    prepare: (doc) => {
      prop(schema(doc, 'V1SiteResponse'), 'name').type = ['string', 'integer'];
    },
    mutate: (doc) => {
      prop(schema(doc, 'V1SiteResponse'), 'name').type = 'string';
    },
  },
  {
    name: 'response constraint relaxed',
    class: 'potentially breaking',
    expect: /response constraint relaxed: V1SiteResponse\.name maxLength 200 → 500/,
    semver: 'minor',
    pre1: 'minor',
    prepare: (doc) => {
      prop(schema(doc, 'V1SiteResponse'), 'name').maxLength = 200;
    },
    mutate: (doc) => {
      prop(schema(doc, 'V1SiteResponse'), 'name').maxLength = 500;
    },
  },
  {
    name: 'new success status',
    class: 'potentially breaking',
    expect: /success response added: POST \/api\/v1\/scans 200/,
    semver: 'minor',
    pre1: 'minor',
    mutate: (doc) => {
      const responses = operation(doc, '/api/v1/scans', 'post').responses;
      responses['200'] = structuredClone(must(responses['202'], 'createScan 202'));
    },
  },
  {
    name: 'webhook payload closed to other fields',
    class: 'potentially breaking',
    expect: /webhook no longer carries other fields: WebhookEventBody/,
    semver: 'minor',
    pre1: 'minor',
    mutate: (doc) => {
      schema(doc, 'WebhookEventBody').additionalProperties = false;
    },
  },
  {
    name: 'webhook rejection answer no longer listed',
    class: 'potentially breaking',
    expect: /receiver answer no longer listed: webhook scan_run\.completed 4XX/,
    semver: 'minor',
    pre1: 'minor',
    mutate: (doc) => {
      must(webhook(doc).responses['4XX'], 'webhook 4XX');
      delete webhook(doc).responses['4XX'];
    },
  },
  // ---------------------------------------------------------------- additive
  {
    name: 'new operation',
    class: 'additive',
    expect: /operation added: GET \/api\/v1\/sites\/\{id\}$/m,
    semver: 'minor',
    pre1: 'patch',
    mutate: (doc) => {
      doc.paths['/api/v1/sites/{id}'] = {
        get: {
          operationId: 'getSite',
          summary: 'Get a site',
          security: [{ bearerAuth: ['sites:read'] }],
          parameters: [{ $ref: '#/components/parameters/Id' }],
          responses: {
            200: {
              description: 'The site.',
              content: { 'application/json': { schema: { $ref: '#/components/schemas/V1SiteResponse' } } },
            },
          },
        },
      };
    },
  },
  {
    name: 'new optional request field',
    class: 'additive',
    expect: /optional request field added: V1CreateScanRequest\.label/,
    semver: 'minor',
    pre1: 'patch',
    mutate: (doc) => {
      schema(doc, 'V1CreateScanRequest').properties.label = { type: 'string', maxLength: 100 };
    },
  },
  {
    name: 'new response field',
    class: 'additive',
    expect: /response field added: V1SiteResponse\.createdAt/,
    semver: 'minor',
    pre1: 'patch',
    mutate: (doc) => {
      schema(doc, 'V1SiteResponse').properties.createdAt = { type: 'string', format: 'date-time' };
    },
  },
  {
    name: 'new problem code',
    class: 'additive',
    expect: /problem code added: API_KEY_EXPIRED/,
    semver: 'minor',
    pre1: 'patch',
    mutate: (doc) => {
      const examples = must(
        doc.components.responses?.Unauthorized?.content?.['application/problem+json']?.examples,
        'Unauthorized examples',
      );
      examples.API_KEY_EXPIRED = {
        value: { type: 'about:blank', title: 'Expired', status: 401, code: 'API_KEY_EXPIRED' },
      };
    },
  },
  {
    name: 'new error response',
    class: 'additive',
    expect: /error response added: POST \/api\/v1\/scan-runs 413/,
    semver: 'minor',
    pre1: 'patch',
    mutate: (doc) => {
      operation(doc, '/api/v1/scan-runs', 'post').responses['413'] = {
        description: 'Too large.',
        content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/ProblemDetail' } } },
      };
    },
  },
  {
    name: 'new optional query parameter',
    class: 'additive',
    expect: /optional request parameter added: GET \/api\/v1\/sites query\.verified/,
    semver: 'minor',
    pre1: 'patch',
    mutate: (doc) => {
      const op = operation(doc, '/api/v1/sites', 'get');
      op.parameters = [
        ...(op.parameters ?? []),
        { name: 'verified', in: 'query', required: false, schema: { type: 'boolean' } },
      ];
    },
  },
  {
    name: 'request constraint relaxed',
    class: 'additive',
    expect: /request constraint relaxed: V1CreateCiCheckRequest\.urls maxItems 20 → 50/,
    semver: 'minor',
    pre1: 'patch',
    mutate: (doc) => {
      prop(schema(doc, 'V1CreateCiCheckRequest'), 'urls').maxItems = 50;
    },
  },
  {
    name: 'operation scope relaxed',
    class: 'additive',
    expect: /security relaxed: POST \/api\/v1\/scans bearerAuth\[scans:write\] → bearerAuth\[\]/,
    semver: 'minor',
    pre1: 'patch',
    mutate: (doc) => {
      operation(doc, '/api/v1/scans', 'post').security = [{ bearerAuth: [] }];
    },
  },
  {
    name: 'operation made anonymous',
    class: 'additive',
    expect: /security relaxed: GET \/api\/v1\/sites bearerAuth\[sites:read\] → anonymous/,
    semver: 'minor',
    pre1: 'patch',
    mutate: (doc) => {
      operation(doc, '/api/v1/sites', 'get').security = [];
    },
  },
  {
    name: 'response field now always present',
    class: 'additive',
    expect: /response field now always present: V1CiCheckResponse\.verdict/,
    semver: 'minor',
    pre1: 'patch',
    mutate: (doc) => {
      schema(doc, 'V1CiCheckResponse').required.push('verdict');
    },
  },
  {
    name: 'new required response field',
    class: 'additive',
    expect: /response field added: V1SiteResponse\.plan/,
    semver: 'minor',
    pre1: 'patch',
    mutate: (doc) => {
      const s = schema(doc, 'V1SiteResponse');
      s.properties.plan = { type: 'string' };
      s.required.push('plan');
    },
  },
  {
    name: 'response no longer nullable',
    class: 'additive',
    expect: /response type narrowed: V1SiteResponse\.name null \| string → string/,
    semver: 'minor',
    pre1: 'patch',
    prepare: (doc) => {
      prop(schema(doc, 'V1SiteResponse'), 'name').type = ['string', 'null'];
    },
    mutate: (doc) => {
      prop(schema(doc, 'V1SiteResponse'), 'name').type = 'string';
    },
  },
  {
    name: 'webhook payload field added',
    class: 'additive',
    expect: /webhook field added: WebhookEventBody\.scanRun/,
    semver: 'minor',
    pre1: 'patch',
    mutate: (doc) => {
      schema(doc, 'WebhookEventBody').properties = { scanRun: { $ref: '#/components/schemas/V1ScanRunResponse' } };
    },
  },
  {
    name: 'webhook answer added',
    class: 'additive',
    expect: /receiver answer added: webhook scan_run\.completed 410/,
    semver: 'minor',
    pre1: 'patch',
    mutate: (doc) => {
      webhook(doc).responses['410'] = { description: 'The receiver asks to be unsubscribed.' };
    },
  },
  {
    name: 'webhook presents credentials',
    class: 'additive',
    expect: /webhook credentials added: webhook scan_run\.completed anonymous → bearerAuth\[\]/,
    semver: 'minor',
    pre1: 'patch',
    mutate: (doc) => {
      webhook(doc).security = [{ bearerAuth: [] }];
    },
  },
  {
    name: 'new operation beside an existing one',
    class: 'additive',
    expect: /operation added: POST \/api\/v1\/sites$/m,
    semver: 'minor',
    pre1: 'patch',
    mutate: (doc) => {
      operation(doc, '/api/v1/sites', 'get');
      doc.paths['/api/v1/sites'].post = {
        operationId: 'createSite',
        summary: 'Register a site',
        security: [{ bearerAuth: ['sites:write'] }],
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: { type: 'object', required: ['rootUrl'], properties: { rootUrl: { type: 'string' } } },
            },
          },
        },
        responses: {
          200: {
            description: 'The site.',
            content: { 'application/json': { schema: { $ref: '#/components/schemas/V1SiteResponse' } } },
          },
        },
      };
    },
    // The operation table must list every operation: regenerated, tsc names the one without a row.
    compile: {
      expect:
        /src\/core\/operations\.ts.*error TS2344: Type '\{ 'operations of openapi\.yaml without a row in ops': "createSite"; \}' does not satisfy the constraint 'true'/,
    },
  },
  // ---------------------------------------------------------------- docs only
  {
    name: 'description and summary edited',
    class: 'docs',
    expect: /^description changed: GET \/api\/v1\/scans\/\{id\}/,
    semver: 'patch',
    pre1: 'patch',
    mutate: (doc) => {
      const op = operation(doc, '/api/v1/scans/{id}', 'get');
      op.description = `${must(op.description, 'getScan description')}\nNow with more words.`;
      op.summary = 'Read a scan';
    },
  },
  {
    name: 'example edited',
    class: 'docs',
    expect: /^example changed: components\.schemas\.PageUrl/,
    semver: 'patch',
    pre1: 'patch',
    mutate: (doc) => {
      schema(doc, 'PageUrl').examples = ['https://blog.example.org/'];
    },
  },
  {
    name: 'operation deprecated',
    class: 'docs',
    expect: /^deprecated: GET \/api\/v1\/scans\/\{id\}\/violations/,
    semver: 'patch',
    pre1: 'patch',
    mutate: (doc) => {
      operation(doc, '/api/v1/scans/{id}/violations', 'get').deprecated = true;
    },
  },
  {
    name: 'path parameter renamed in place',
    class: 'docs',
    expect: /^path parameter renamed: GET \/api\/v1\/sites\/\{siteId\}\/trend \{id\} → \{siteId\}/,
    semver: 'patch',
    pre1: 'patch',
    mutate: (doc) => renamePathParameter(doc, '/api/v1/sites/{id}/trend', 'id', 'siteId'),
    // Users see nothing (same URL, same methods), but the resource call must follow: with the route text in
    // the operation table updated (what made tsc green before), the call's `{ path: { id } }` fails.
    compile: {
      expect: /src\/resources\/sites\.ts.*'id' does not exist in type '\{ siteId: string; \}'/,
      src: {
        'src/core/operations.ts': (t) => t.replace("'/api/v1/sites/{id}/trend'", "'/api/v1/sites/{siteId}/trend'"),
      },
    },
  },
  {
    name: 'path parameter of a polled job renamed in place',
    class: 'docs',
    expect: /^path parameter renamed: GET \/api\/v1\/scans\/\{scanId\} \{id\} → \{scanId\}/,
    semver: 'patch',
    pre1: 'patch',
    mutate: (doc) => renamePathParameter(doc, '/api/v1/scans/{id}', 'id', 'scanId'),
    compile: {
      expect: /src\/resources\/scans\.ts.*'id' does not exist in type '\{ scanId: string; \}'/,
      src: { 'src/core/operations.ts': (t) => t.replace("'/api/v1/scans/{id}'", "'/api/v1/scans/{scanId}'") },
    },
  },
  {
    name: 'webhook operationId changed',
    class: 'docs',
    expect:
      /^operationId changed: webhook scan_run\.completed onScanRunCompleted → onRunCompleted \(not on the SDK's public surface/,
    semver: 'patch',
    pre1: 'patch',
    mutate: (doc) => {
      webhook(doc).operationId = 'onRunCompleted';
    },
  },
  {
    name: 'error response removed',
    class: 'docs',
    expect: /^error response removed: POST \/api\/v1\/scan-runs 409/,
    semver: 'patch',
    pre1: 'patch',
    mutate: (doc) => {
      const responses = operation(doc, '/api/v1/scan-runs', 'post').responses;
      must(responses['409'], 'createScanRun 409');
      delete responses['409'];
    },
  },
  // ---------------------------------------------------------------- nothing
  {
    name: 'keys reordered only',
    class: 'none',
    expect: /^no change for clients$/m,
    semver: 'none',
    pre1: 'none',
    mutate: (doc) => {
      const s = schema(doc, 'V1SeverityCounts');
      s.properties = Object.fromEntries(Object.entries(s.properties).reverse());
    },
  },
  {
    name: 'parameter $ref inlined',
    class: 'none',
    expect: /^no change for clients$/m,
    semver: 'none',
    pre1: 'none',
    mutate: (doc) => {
      const op = operation(doc, '/api/v1/scans/{id}', 'get');
      op.parameters = op.parameters.map((/** @type {any} */ p) =>
        p.$ref === '#/components/parameters/Id' ? structuredClone(doc.components.parameters.Id) : p,
      );
    },
  },
];
