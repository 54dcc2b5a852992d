// Mutations of openapi.yaml, one per class and case of scripts/spec-diff.mjs's table. Each edits the parsed
// document in place and throws when its target is gone, so a reworked description fails the fixture test
// loudly instead of turning a mutation into a no-op. `semver` is the bump from 1.0 on; `pre1` before 1.0.

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

/**
 * @typedef {{ name: string, class: 'breaking' | 'potentially breaking' | 'additive' | 'docs' | 'none',
 *   expect: RegExp, semver: 'major' | 'minor' | 'patch' | 'none', pre1: 'minor' | 'patch' | 'none',
 *   mutate: (doc: any) => void }} Mutation
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
      operation(doc, '/api/v1/sites/{id}/trend', 'get').parameters.push({ name: 'standard', in: 'query', required: true, schema: { type: 'string' } });
    },
  },
  {
    name: 'operation scope changed',
    class: 'breaking',
    expect: /security changed: GET \/api\/v1\/sites bearerAuth\[sites:read\] → bearerAuth\[sites:admin\]/,
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
          responses: { 200: { description: 'The site.', content: { 'application/json': { schema: { $ref: '#/components/schemas/V1SiteResponse' } } } } },
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
      const examples = must(doc.components.responses?.Unauthorized?.content?.['application/problem+json']?.examples, 'Unauthorized examples');
      examples.API_KEY_EXPIRED = { value: { type: 'about:blank', title: 'Expired', status: 401, code: 'API_KEY_EXPIRED' } };
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
      op.parameters = [...(op.parameters ?? []), { name: 'verified', in: 'query', required: false, schema: { type: 'boolean' } }];
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
];
