// Debug logs and hooks show no credential of any name. A client given credential headers under many
// names (`x-auth-token`, `private-token`, `apikey`, `ocp-apim-subscription-key`, …) against a loopback service that
// echoes each one back in its answer: no value reaches a log line or a hook (request or response) unless the hooks
// opted into `unredacted`; harmless headers stay visible; the service still gets every value as given. The CLI's
// `--verbose` prints the same lines (in process, with run(argv, io)).
import { afterEach, describe, expect, it, vi } from 'vitest';
import { run } from '../../src/cli/main.js';
import type { HookRequest, Hooks, Logger } from '../../src/index.js';
import { A11yClient } from '../../src/index.js';
import { isCredentialHeader } from '../../src/internal/credential-headers.js';
import { json, type Seen, serveEach } from '../support/loopback.js';

const KEY = 'svc_Cred_Headers_Key-93qz';
const siteId = '3fa85f64-5717-4562-b3fc-2c963f66afa6';
const serve = serveEach();

afterEach(() => {
  vi.unstubAllEnvs();
});

// Each credential header the client sends, with a value found nowhere else (so any leak is this header's).
const SENT_CREDENTIALS: Record<string, string> = {
  'x-auth-token': 'xauthtoken-VAL-0001',
  'private-token': 'privatetoken-VAL-0002',
  apikey: 'apikey-VAL-0003',
  'ocp-apim-subscription-key': 'ocpapim-VAL-0004',
  'X-Api-Key': 'XApiKey-VAL-0005',
  x_api_key: 'x_api_key-VAL-0006',
  'x-amz-security-token': 'amzsecurity-VAL-0007',
  cookie: 'sid=cookie-VAL-0008',
  'x-hub-signature-256': 'sha256=hubsig-VAL-0009',
  'x-session-id': 'sessionid-VAL-0010',
  'proxy-authorization': 'Basic proxyauth-VAL-0011',
  'x-password': 'password-VAL-0012',
  'x-credential': 'credential-VAL-0013',
  'x-csrf-token': 'csrf-VAL-0014',
  'X-Client-Secret': 'clientsecret-VAL-0015',
};
// Credential headers only the service sends.
const ANSWERED_CREDENTIALS: Record<string, string> = {
  'set-cookie': 'session=setcookie-VAL-0101; HttpOnly',
  'www-authenticate': 'Bearer realm="x", wwwauth-VAL-0102',
};
const HARMLESS_SENT = { 'x-request-id': 'req-id-visible-7731' };
const HARMLESS_ANSWERED = { 'x-request-id': 'resp-id-visible-8842', 'x-ratelimit-remaining': '41' };

const CASES: Array<[name: string, value: string, from: 'request' | 'response']> = [
  ...Object.entries(SENT_CREDENTIALS).map(([n, v]) => [n, v, 'request'] as [string, string, 'request']),
  ...Object.entries(ANSWERED_CREDENTIALS).map(([n, v]) => [n, v, 'response'] as [string, string, 'response']),
];

/** Answers `[]` with every credential header it was sent echoed back (`cookie` as itself), plus its own. */
const echo = (req: Seen, res: import('node:http').ServerResponse) => {
  const echoed: Record<string, string> = {};
  for (const name of Object.keys(SENT_CREDENTIALS)) {
    const value = req.headers[name.toLowerCase()];
    if (typeof value === 'string') echoed[name] = value;
  }
  json(200, [], { ...echoed, ...ANSWERED_CREDENTIALS, ...HARMLESS_ANSWERED })(req, res, 0);
};

function capture() {
  const lines: string[] = [];
  const at = (level: string) => (message: string) => void lines.push(`${level} ${message}`);
  const logger: Logger = { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
  return { lines, logger, settled: () => new Promise((resolve) => setTimeout(resolve, 20)) };
}

/** One `sites.list()` against the echoing service: the log lines, what each hook saw, what the service got. */
async function listSites(hookOptions: Partial<Hooks> = {}, extraHeaders: Record<string, string> = {}) {
  const api = await serve(echo);
  const { lines, logger, settled } = capture();
  const seenRequests: Array<Record<string, string>> = [];
  const seenResponses: Array<Array<[string, string]>> = [];
  const seenResponseHeaders: Headers[] = [];
  const client = new A11yClient({
    apiKey: KEY,
    baseUrl: api.url,
    logLevel: 'debug',
    logger,
    headers: { ...SENT_CREDENTIALS, ...HARMLESS_SENT, ...extraHeaders },
    hooks: {
      onRequest: (request: HookRequest) => void seenRequests.push({ ...request.headers }),
      onResponse: (response) => {
        seenResponses.push([...response.headers]);
        seenResponseHeaders.push(response.headers);
      },
      ...hookOptions,
    },
  });
  await client.sites.list();
  await settled();
  const log = lines.join('\n');
  const requestLine = lines.find((line) => line.includes('→ GET'))!;
  const responseLine = lines.find((line) => line.includes('← GET'))!;
  const hooksSaw = JSON.stringify([seenRequests, seenResponses]);
  return {
    api,
    log,
    requestLine,
    responseLine,
    hooksSaw,
    seenRequests,
    seenResponses,
    seenResponseHeaders,
    received: api.requests[0]!,
  };
}

describe('isCredentialHeader: one list, by the words of the issue, any case and separator', () => {
  it.each([
    'authorization',
    'Authorization',
    'proxy-authorization',
    'cookie',
    'set-cookie',
    'x-auth-token',
    'private-token',
    'apikey',
    'APIKEY',
    'ocp-apim-subscription-key',
    'X-Api-Key',
    'x_api_key',
    'X_API_KEY',
    'x-amz-security-token',
    'x-csrf-token',
    'x-hub-signature-256',
    'x-session-id',
    'x-password',
    'x-passwd',
    'x-credential',
    'x-goog-credentials',
    'client-secret',
    'www-authenticate',
    // Over-matched by the list, accepted: `key` in the name.
    'x-idempotency-key',
  ])('%s → credential', (name) => {
    expect(isCredentialHeader(name)).toBe(true);
  });

  it.each([
    'accept',
    'content-type',
    'content-length',
    'x-request-id',
    'traceparent',
    'retry-after',
    'location',
    'x-ratelimit-remaining',
    'user-agent',
    'keep-alive',
    'date',
  ])('%s → shown', (name) => {
    expect(isCredentialHeader(name)).toBe(false);
  });
});

describe('a credential header under any name: redacted in the log and from hooks, shown to unredacted hooks', () => {
  it.each(CASES)('%s (%s), from the %s', async (name, value, from) => {
    const lower = name.toLowerCase();
    // The value, and its part after `=` (a cookie's, a signature's), reach no log line and no hook.
    const pieces = [value, value.split('=').pop()!];
    const redacted = await listSites();
    for (const piece of pieces) {
      expect(redacted.log).not.toContain(piece);
      expect(redacted.hooksSaw).not.toContain(piece);
    }
    const shown = `"${lower}":"[redacted]"`;
    if (from === 'request') {
      // Sent as given; logged and shown redacted both ways (the service echoes it back).
      expect(redacted.received.headers[lower]).toBe(value);
      expect(redacted.requestLine).toContain(shown);
      expect(redacted.responseLine).toContain(shown);
      expect(redacted.seenRequests[0]![lower]).toBe('[redacted]');
      expect(redacted.seenResponseHeaders[0]!.get(lower)).toBe('[redacted]');
    } else {
      expect(redacted.responseLine).toContain(shown);
      expect(redacted.seenResponseHeaders[0]!.get(lower)).toBe('[redacted]');
    }
    // Its neighbours stay visible: accept, content-type, x-request-id (both ways), rate-limit headers.
    expect(redacted.requestLine).toContain('"accept":"application/json, application/problem+json"');
    expect(redacted.requestLine).toContain('"x-request-id":"req-id-visible-7731"');
    expect(redacted.responseLine).toContain('"content-type":"application/json"');
    expect(redacted.responseLine).toContain('"x-request-id":"resp-id-visible-8842"');
    expect(redacted.responseLine).toContain('"x-ratelimit-remaining":"41"');
    expect(redacted.seenRequests[0]).toMatchObject({
      authorization: 'Bearer [redacted]',
      accept: 'application/json, application/problem+json',
      'x-request-id': 'req-id-visible-7731',
    });
    expect(redacted.seenResponseHeaders[0]!.get('content-type')).toBe('application/json');
    expect(redacted.seenResponseHeaders[0]!.get('x-request-id')).toBe('resp-id-visible-8842');

    // Hooks that opted in see it as sent and received (the key too); the log still redacts it.
    const unredacted = await listSites({ unredacted: true });
    if (from === 'request') {
      expect(unredacted.seenRequests[0]![lower]).toBe(value);
      expect(unredacted.received.headers[lower]).toBe(value);
    }
    expect(unredacted.seenResponseHeaders[0]!.get(lower)).toBe(value);
    expect(unredacted.seenRequests[0]!.authorization).toBe(`Bearer ${KEY}`);
    for (const piece of pieces) expect(unredacted.log).not.toContain(piece);
  });
});

describe('the API key and hooks that edit headers', () => {
  it('the key under a harmless name: redacted in the log (as before) and from onRequest, sent as given', async () => {
    const { log, requestLine, responseLine, hooksSaw, seenRequests, received } = await listSites(
      {},
      { 'x-trace-note': `carried ${KEY}` },
    );
    for (const text of [log, hooksSaw]) {
      expect(text).not.toContain(KEY);
      expect(text).not.toContain(KEY.slice(0, 8));
    }
    expect(requestLine).toContain('"x-trace-note":"carried [redacted]"');
    expect(responseLine).not.toContain('x-trace-note'); // not echoed: not a credential name
    expect(seenRequests[0]!['x-trace-note']).toBe('carried [redacted]');
    expect(received.headers['x-trace-note']).toBe(`carried ${KEY}`);
  });

  it('onRequest: a credential header it changes is sent changed, one it removes is not sent, one it adds is logged redacted', async () => {
    const api = await serve(echo);
    const { lines, logger, settled } = capture();
    await new A11yClient({
      apiKey: KEY,
      baseUrl: api.url,
      logLevel: 'debug',
      logger,
      headers: { 'x-auth-token': 'old-token-VAL-2001', apikey: 'apikey-VAL-2002', 'x-session-id': 'sess-VAL-2003' },
      hooks: {
        onRequest: (request) => {
          request.headers['x-auth-token'] = 'new-token-VAL-2004';
          delete request.headers['x-session-id'];
          request.headers['x-added-secret'] = 'added-VAL-2005';
        },
      },
    }).sites.list();
    await settled();
    const sent = api.requests[0]!.headers;
    expect(sent['x-auth-token']).toBe('new-token-VAL-2004');
    expect(sent.apikey).toBe('apikey-VAL-2002');
    expect(sent['x-session-id']).toBeUndefined();
    expect(sent['x-added-secret']).toBe('added-VAL-2005');
    const log = lines.join('\n');
    for (const value of ['old-token', 'new-token', 'apikey-VAL', 'sess-VAL', 'added-VAL'])
      expect(log).not.toContain(value);
    expect(log).toContain('"x-added-secret":"[redacted]"');
  });
});

describe('svc-a11y --verbose (in process): the same list', () => {
  it('no credential header the service answers with reaches stderr; harmless ones do', async () => {
    vi.stubEnv('SVC_API_KEY', '');
    vi.stubEnv('SVC_BASE_URL', '');
    vi.stubEnv('SVC_LOG', '');
    const answered = {
      'x-auth-token': 'cli-xauth-VAL-3001',
      'x-amz-security-token': 'cli-amz-VAL-3002',
      'set-cookie': 'session=cli-cookie-VAL-3003',
      'x-hub-signature-256': 'sha256=cli-hubsig-VAL-3004',
      'ocp-apim-subscription-key': 'cli-ocp-VAL-3005',
      x_api_key: 'cli-underscore-VAL-3006',
      'x-request-id': 'cli-req-id-visible-3007',
    };
    const api = await serve(json(200, { siteId, standard: 'WCAG22_AA', points: [] }, answered));
    let stdout = '';
    let stderr = '';
    const code = await run(['trend', siteId, '--verbose'], {
      stdout: { write: (t: string) => (stdout += t), isTTY: false },
      stderr: { write: (t: string) => (stderr += t), isTTY: false },
      env: { SVC_API_KEY: KEY, SVC_BASE_URL: api.url },
    });
    expect(code, stderr).toBe(0);
    expect(stderr).toMatch(/^debug: \[a11y\] ← GET \/api\/v1\/sites\/[^ ]+\/trend: 200 /m);
    for (const [name, value] of Object.entries(answered)) {
      if (name === 'x-request-id') continue;
      expect(`${stdout}${stderr}`).not.toContain(value.split('=').pop()!);
      expect(stderr).toContain(`"${name}":"[redacted]"`);
    }
    expect(stderr).toContain('"x-request-id":"cli-req-id-visible-3007"');
    expect(`${stdout}${stderr}`).not.toContain(KEY.slice(0, 8));
  });
});
