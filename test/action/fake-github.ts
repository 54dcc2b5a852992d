// A loopback fake of the part of GitHub's API the action uses: who the token is (GraphQL `viewer`, REST `/user`),
// list (paginated, with Link headers as GitHub sends them), create and edit issue comments. Its state is the
// comments themselves, so a test can count them.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

interface FakeComment {
  id: number;
  body: string;
  user: { login: string; type: string };
  html_url: string;
  created_at: string;
  updated_at: string;
}

interface FakeRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  authorization: string | undefined;
  body: unknown;
}

export interface FakeGitHub {
  /** `http://127.0.0.1:PORT`, for GITHUB_API_URL. */
  url: string;
  /** Comments by issue number. */
  comments: Map<number, FakeComment[]>;
  requests: FakeRequest[];
  /** When true, creating or editing a comment answers 403 as GitHub does for a read-only token. */
  forbidden: boolean;
  /** Posts a comment as `login` (another user, or someone imitating the action). */
  addComment(issue: number, body: string, login: string): FakeComment;
  close(): Promise<void>;
}

const DOCS = 'https://docs.github.com/rest/issues/comments';

/**
 * Starts the fake for one repository (`owner/repo`), accepting one token. `seed` puts unrelated comments on a
 * pull request first (more than one page of them, so the action's marker comment is found only by paging).
 */
export async function startFakeGitHub(options: {
  repository: string;
  token: string;
  seed?: { issue: number; count: number };
  /**
   * Who the token is: its comments are written as this login. `viewer` answers GraphQL's `viewer` and `GET /user`
   * with it; `user` answers only `GET /user` (GraphQL refused); `none` answers neither, as for an installation token
   * that may read no user.
   * @default { login: 'github-actions[bot]', answers: 'viewer' }
   */
  identity?: { login: string; answers: 'viewer' | 'user' | 'none' };
}): Promise<FakeGitHub> {
  const identity = options.identity ?? { login: 'github-actions[bot]', answers: 'viewer' };
  const comments = new Map<number, FakeComment[]>();
  const requests: FakeRequest[] = [];
  let nextId = 1000;
  const stamp = (n: number) => new Date(Date.UTC(2026, 10, 20, 10, 0, n)).toISOString().replace('.000Z', 'Z');
  const fake: FakeGitHub = {
    url: '',
    comments,
    requests,
    forbidden: false,
    addComment: (issue, body, login) => add(issue, body, login),
    close: async () => undefined,
  };
  const add = (issue: number, body: string, login: string): FakeComment => {
    const id = nextId++;
    const comment: FakeComment = {
      id,
      body,
      user: { login, type: login.endsWith('[bot]') ? 'Bot' : 'User' },
      html_url: `https://github.com/${options.repository}/pull/${issue}#issuecomment-${id}`,
      created_at: stamp(id % 60),
      updated_at: stamp(id % 60),
    };
    comments.set(issue, [...(comments.get(issue) ?? []), comment]);
    return comment;
  };
  for (let i = 0; i < (options.seed?.count ?? 0); i++) {
    // One mentions the marker mid-text (quoting the action): it must not be taken for the action's comment.
    add(
      options.seed!.issue,
      i === 3 ? 'As the bot said in <!-- svc-a11y-action -->, fix it' : `Review comment ${i}`,
      i % 2 ? 'octocat' : 'hubot',
    );
  }

  const send = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
    res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
    res.end(JSON.stringify(body));
  };
  const handle = (req: IncomingMessage, res: ServerResponse, raw: string) => {
    const url = new URL(req.url ?? '/', fake.url);
    let body: unknown;
    try {
      body = raw ? JSON.parse(raw) : undefined;
    } catch {
      return send(res, 400, { message: 'Problems parsing JSON', documentation_url: DOCS });
    }
    requests.push({
      method: req.method ?? '',
      path: url.pathname,
      query: url.searchParams,
      authorization: req.headers.authorization,
      body,
    });
    const auth = req.headers.authorization ?? '';
    if (auth !== `token ${options.token}` && auth !== `Bearer ${options.token}`)
      return send(res, 401, { message: 'Bad credentials', documentation_url: DOCS });
    const refused = () =>
      send(res, 403, { message: 'Resource not accessible by integration', documentation_url: DOCS, status: '403' });
    if (url.pathname === '/graphql' && req.method === 'POST') {
      if (identity.answers !== 'viewer') return refused();
      const query = (body as { query?: unknown } | undefined)?.query;
      if (typeof query !== 'string' || !/viewer\s*\{\s*login\s*\}/.test(query))
        return send(res, 200, { errors: [{ message: 'unexpected query' }] });
      return send(res, 200, { data: { viewer: { login: identity.login } } });
    }
    if (url.pathname === '/user' && req.method === 'GET')
      return identity.answers === 'none' ? refused() : send(res, 200, { login: identity.login, id: 1 });
    const prefix = `/repos/${options.repository}/issues/`;
    if (!url.pathname.startsWith(prefix)) return send(res, 404, { message: 'Not Found', documentation_url: DOCS });
    const rest = url.pathname.slice(prefix.length);
    const list = /^(\d+)\/comments$/.exec(rest);
    const edit = /^comments\/(\d+)$/.exec(rest);
    if (list && req.method === 'GET') {
      const issue = Number(list[1]);
      const all = comments.get(issue) ?? [];
      const perPage = Math.min(100, Number(url.searchParams.get('per_page') ?? 30));
      const page = Math.max(1, Number(url.searchParams.get('page') ?? 1));
      const last = Math.max(1, Math.ceil(all.length / perPage));
      const link = (p: number, rel: string) =>
        `<${fake.url}${url.pathname}?per_page=${perPage}&page=${p}>; rel="${rel}"`;
      const links = [
        ...(page < last ? [link(page + 1, 'next'), link(last, 'last')] : []),
        ...(page > 1 ? [link(1, 'first'), link(page - 1, 'prev')] : []),
      ];
      return send(
        res,
        200,
        all.slice((page - 1) * perPage, page * perPage),
        links.length ? { link: links.join(', ') } : {},
      );
    }
    if (list && req.method === 'POST') {
      if (fake.forbidden)
        return send(res, 403, {
          message: 'Resource not accessible by integration',
          documentation_url: DOCS,
          status: '403',
        });
      const text = (body as { body?: unknown } | undefined)?.body;
      if (typeof text !== 'string' || text === '')
        return send(res, 422, { message: 'Validation Failed', documentation_url: DOCS });
      if (text.length > 65_536)
        return send(res, 422, {
          message: 'Validation Failed: body is too long (maximum is 65536 characters)',
          documentation_url: DOCS,
        });
      return send(res, 201, add(Number(list[1]), text, identity.login));
    }
    if (edit && req.method === 'PATCH') {
      if (fake.forbidden)
        return send(res, 403, {
          message: 'Resource not accessible by integration',
          documentation_url: DOCS,
          status: '403',
        });
      const id = Number(edit[1]);
      const comment = [...comments.values()].flat().find((c) => c.id === id);
      if (!comment) return send(res, 404, { message: 'Not Found', documentation_url: DOCS });
      const text = (body as { body?: unknown } | undefined)?.body;
      if (typeof text !== 'string' || text === '')
        return send(res, 422, { message: 'Validation Failed', documentation_url: DOCS });
      comment.body = text;
      comment.updated_at = stamp(59);
      return send(res, 200, comment);
    }
    return send(res, 404, { message: 'Not Found', documentation_url: DOCS });
  };

  const sockets = new Set<Socket>();
  const server = createServer((req, res) => {
    let raw = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (raw += chunk));
    req.on('end', () => handle(req, res, raw));
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  fake.close = () =>
    new Promise<void>((resolve) => {
      for (const s of sockets) s.destroy();
      server.close(() => resolve());
    });
  return fake;
}
