// The classified diff of two OpenAPI documents: operations, their ids, security, parameters, bodies, responses,
// webhooks (events, payloads, what receivers answer) and problem codes.
import { RANK } from './bump.mjs';
import { docsChanges } from './docs.mjs';
import { fieldChange, SchemaDiff } from './schemas.mjs';
import { deref, list, METHODS, same } from './util.mjs';

/** @typedef {import('./bump.mjs').Change} Change */
/** @typedef {import('./bump.mjs').ChangeClass} ChangeClass */
/** @typedef {import('./schemas.mjs').Dir} Dir */

/** Every operation by a key that ignores path parameter names (renaming `{id}` is not a new operation). */
function operationsOf(doc) {
  const ops = new Map();
  for (const [path, item0] of Object.entries(doc.paths ?? {})) {
    const item = deref(doc, item0).node ?? {};
    for (const m of METHODS) {
      if (item[m])
        ops.set(`${m} ${path.replace(/\{[^}]*\}/g, '{}')}`, {
          label: `${m.toUpperCase()} ${path}`,
          name: path,
          path,
          op: item[m],
          shared: item.parameters ?? [],
          webhook: false,
        });
    }
  }
  for (const [name, item0] of Object.entries(doc.webhooks ?? {})) {
    const item = deref(doc, item0).node ?? {};
    for (const m of METHODS) {
      if (item[m])
        ops.set(`webhook ${name} ${m}`, {
          label: `webhook ${name}`,
          name,
          path: '',
          op: item[m],
          shared: item.parameters ?? [],
          webhook: true,
        });
    }
  }
  return ops;
}

/** Parameters by `in.name`; `renames` maps a base path parameter's name to its name in the other document. */
function parametersOf(doc, entry, renames = new Map()) {
  const map = new Map();
  for (const p0 of [...entry.shared, ...(entry.op.parameters ?? [])]) {
    const p = deref(doc, p0).node;
    if (!p?.name) continue;
    const name = p.in === 'path' ? (renames.get(p.name) ?? p.name) : p.in === 'header' ? p.name.toLowerCase() : p.name;
    map.set(`${p.in}.${name}`, p);
  }
  return map;
}

/** The `{name}`s of a path template, in order. */
const templateNames = (path) => [...path.matchAll(/\{([^}]*)\}/g)].map((m) => m[1]);

/**
 * The operation's security alternatives, scopes sorted. `security: []` (and an empty alternative `{}`) means
 * no credentials are needed: it is the alternative `{}`, which every set of credentials meets.
 */
function securityOf(doc, op) {
  const alts = (op.security ?? doc.security ?? []).map((alt) =>
    Object.fromEntries(Object.entries(alt).map(([k, v]) => [k, [...(v ?? [])].sort()])),
  );
  return alts.length ? alts : [{}];
}
const securityText = (alts) =>
  alts
    .map(
      (alt) =>
        Object.entries(alt)
          .map(([k, v]) => `${k}[${v.join(', ')}]`)
          .join(' + ') || 'anonymous',
    )
    .join(' | ');
/** True when credentials meeting `old` alternative also meet some alternative of `next`. */
const satisfies = (old, next) =>
  next.some((alt) => Object.entries(alt).every(([k, scopes]) => old[k] && scopes.every((s) => old[k].includes(s))));

const problemCodesIn = (content) => {
  const codes = [];
  for (const [type, media] of Object.entries(content ?? {})) {
    if (!/problem\+json/.test(type)) continue;
    if (media.example?.code) codes.push(media.example.code);
    for (const ex of Object.values(media.examples ?? {})) if (ex?.value?.code) codes.push(ex.value.code);
  }
  return codes;
};

/** Every problem code the description shows in its problem+json examples. */
function problemCodes(doc) {
  const codes = new Set();
  const visit = (node) => {
    if (!node || typeof node !== 'object') return;
    if (!Array.isArray(node) && node.content && typeof node.content === 'object')
      for (const c of problemCodesIn(node.content)) codes.add(c);
    for (const v of Object.values(node)) visit(v);
  };
  visit(doc.paths);
  visit(doc.webhooks);
  visit(doc.components);
  return codes;
}

/** True when an answer with status `code` is covered by one of `codes` (itself, or its `2XX`-style range). */
const coveredBy = (code, codes) => codes.includes(code) || codes.includes(`${code[0]}XX`);

/**
 * What a webhook receiver answers, and how the service takes it. A success status no longer listed is an
 * acknowledgement the service stops accepting (the delivery is retried, the endpoint may be disabled); another
 * status no longer listed may now be taken differently; a new one is a new behaviour receivers may use. A status
 * dropped in favour of a range that covers it (`200` → `2XX`) changes nothing.
 */
function receiverAnswers(base, head, bop, hop, label, add, schemas, addAll) {
  const bres = bop.responses ?? {};
  const hres = hop.responses ?? {};
  const [bcodes, hcodes] = [Object.keys(bres), Object.keys(hres)];
  for (const code of bcodes) {
    if (coveredBy(code, hcodes)) continue;
    if (/^2/.test(code))
      add('breaking', `receiver answer no longer acknowledged: ${label} ${code} (deliveries answered so are retried)`);
    else
      add(
        'potentially breaking',
        `receiver answer no longer listed: ${label} ${code} (the service may take it differently)`,
      );
  }
  for (const code of hcodes) {
    if (!bcodes.includes(code)) add('additive', `receiver answer added: ${label} ${code}`);
  }
  for (const code of bcodes.filter((c) => hcodes.includes(c))) {
    const br = deref(base, bres[code]).node ?? {};
    const hr = deref(head, hres[code]).node ?? {};
    for (const type of new Set([...Object.keys(br.content ?? {}), ...Object.keys(hr.content ?? {})])) {
      const bm = br.content?.[type];
      const hm = hr.content?.[type];
      if (bm && !hm) add('breaking', `receiver answer content type removed: ${label} ${code} ${type}`);
      else if (!bm && hm) add('additive', `receiver answer content type added: ${label} ${code} ${type}`);
      else if (bm?.schema && hm?.schema)
        addAll(schemas.compare(bm.schema, hm.schema, `${label} ${code} answer`, 'answer'), label);
    }
  }
}

/**
 * Classifies every difference between two parsed OpenAPI documents for a client of the SDK.
 * @returns {Change[]} sorted, most severe first; a schema shared by several operations reports once, `at` them all
 */
export function diffSpecs(base, head) {
  const schemas = new SchemaDiff(base, head);
  /** @type {Map<string, Change>} */
  const changes = new Map();
  const add = (cls, message, at) => {
    const key = `${cls}\u0000${message}`;
    const c = changes.get(key) ?? { class: cls, message, at: [] };
    if (at && !c.at.includes(at) && !message.includes(`${at} `)) c.at.push(at);
    changes.set(key, c);
  };
  const addAll = (list, at) => {
    for (const c of list) add(c.class, c.message, at);
  };

  const bops = operationsOf(base);
  const hops = operationsOf(head);
  for (const [key, { label, webhook, name }] of bops) {
    if (hops.has(key)) continue;
    // A receiver waiting for an event kind that is no longer sent breaks as surely as a caller of a gone method.
    add(
      'breaking',
      webhook ? `webhook event removed: ${name} (receivers no longer get it)` : `operation removed: ${label}`,
    );
  }
  for (const [key, { label, webhook, name }] of hops) {
    if (bops.has(key)) continue;
    // A new event kind may reach endpoints whose code expects only the kinds it knew (like a widened enum).
    if (webhook)
      add(
        'potentially breaking',
        `webhook event added: ${name} (receivers may get deliveries of a kind their code does not handle)`,
      );
    else add('additive', `operation added: ${label}`);
  }

  for (const [key, bentry] of bops) {
    const hentry = hops.get(key);
    if (!hentry) continue;
    const { op: bop } = bentry;
    const { op: hop, label } = hentry;
    // What users' code writes, and what it reads: a call's request and response; a webhook's payload and
    // headers (read by receivers) and the answer receivers give.
    /** @type {Dir} */ const input = hentry.webhook ? 'webhook' : 'request';
    /** @type {Dir} */ const output = hentry.webhook ? 'answer' : 'response';

    // Its id reaches users: ResponseValidationError.operationId (and its message) and the generated operation
    // types. A webhook's id is used by nothing the SDK ships.
    if (bop.operationId !== hop.operationId) {
      const ids = `${bop.operationId ?? 'none'} → ${hop.operationId ?? 'none'}`;
      if (hentry.webhook)
        add(
          'docs',
          `operationId changed: ${label} ${ids} (not on the SDK's public surface: verifyWebhook and the payload types do not use it)`,
        );
      else
        add('breaking', `operationId renamed: ${label} ${ids} (users see it in ResponseValidationError.operationId)`);
    }

    // Path parameters renamed in place: the URL and the SDK's methods stay the same; the resource calls must
    // pass the new name, which tsc checks against the generated operations.
    const renames = new Map();
    if (!hentry.webhook) {
      const [bnames, hnames] = [templateNames(bentry.path), templateNames(hentry.path)];
      bnames.forEach((n, i) => {
        if (hnames[i] !== undefined && hnames[i] !== n) {
          renames.set(n, hnames[i]);
          add(
            'docs',
            `path parameter renamed: ${label} {${n}} → {${hnames[i]}} (same URL and methods for users; the SDK's resource calls must pass the new name, and tsc checks them)`,
          );
        }
      });
    }

    // Who may call it. Needing credentials (or more scopes) where none were needed breaks callers whose key
    // lacks them; needing less does not. For a webhook it is the service that presents credentials, so a
    // receiver checking them breaks when they are dropped.
    const bsec = securityOf(base, bop);
    const hsec = securityOf(head, hop);
    if (!same(bsec, hsec)) {
      const relaxed = bsec.every((alt) => satisfies(alt, hsec));
      const what = `${label} ${securityText(bsec)} → ${securityText(hsec)}`;
      if (hentry.webhook)
        add(
          relaxed ? 'breaking' : 'additive',
          `webhook credentials ${relaxed ? 'dropped or reduced' : 'added'}: ${what}`,
        );
      else add(relaxed ? 'additive' : 'breaking', `security ${relaxed ? 'relaxed' : 'tightened'}: ${what}`);
    }
    const bplan = bop['x-plan-features'] ?? [];
    const hplan = hop['x-plan-features'] ?? [];
    const planAdded = hplan.filter((f) => !bplan.includes(f));
    const planGone = bplan.filter((f) => !hplan.includes(f));
    if (planAdded.length) add('breaking', `plan features added: ${label} (${list(planAdded)})`);
    if (planGone.length) add('additive', `plan features removed: ${label} (${list(planGone)})`);

    // Parameters.
    const bpar = parametersOf(base, bentry, renames);
    const hpar = parametersOf(head, hentry);
    for (const name of new Set([...bpar.keys(), ...hpar.keys()])) {
      const bp = bpar.get(name);
      const hp = hpar.get(name);
      fieldChange(
        (c, m) => add(c, m),
        input,
        hentry.webhook ? 'header' : 'parameter',
        `${label} ${name}`,
        bp ? { required: !!bp.required } : false,
        hp ? { required: !!hp.required } : false,
      );
      // Labelled by the operation already; a `$ref`'d schema is labelled by its name, and says where it is used.
      if (bp?.schema && hp?.schema) addAll(schemas.compare(bp.schema, hp.schema, `${label} ${name}`, input), label);
    }

    // Request body.
    const bbody = deref(base, bop.requestBody).node;
    const hbody = deref(head, hop.requestBody).node;
    const where = `${label} body`;
    const inNoun = hentry.webhook ? 'webhook' : 'request';
    if (bbody && !hbody) add('breaking', `${inNoun} body removed: ${label}`);
    else if (!bbody && hbody)
      add(
        hbody.required || hentry.webhook ? 'breaking' : 'additive',
        `${inNoun} body added${hbody.required ? ' (required)' : ''}: ${label}`,
      );
    else if (bbody && hbody) {
      if (!!bbody.required !== !!hbody.required) {
        if (input === 'request')
          add(
            hbody.required ? 'breaking' : 'additive',
            `request body ${hbody.required ? 'newly required' : 'now optional'}: ${label}`,
          );
        else
          add(
            hbody.required ? 'additive' : 'breaking',
            `${inNoun} body ${hbody.required ? 'now always present' : 'no longer always present'}: ${label}`,
          );
      }
      for (const type of new Set([...Object.keys(bbody.content ?? {}), ...Object.keys(hbody.content ?? {})])) {
        const bm = bbody.content?.[type];
        const hm = hbody.content?.[type];
        // A webhook's payload in a new media type reaches receivers that parse only the old one.
        if (bm && !hm) add('breaking', `${inNoun} content type removed: ${label} ${type}`);
        else if (!bm && hm)
          add(hentry.webhook ? 'potentially breaking' : 'additive', `${inNoun} content type added: ${label} ${type}`);
        else if (bm?.schema && hm?.schema) addAll(schemas.compare(bm.schema, hm.schema, where, input), label);
      }
    }

    // A webhook's responses are what receivers answer and how the service takes it.
    if (hentry.webhook) {
      receiverAnswers(base, head, bop, hop, label, add, schemas, addAll);
      continue;
    }
    const bres = bop.responses ?? {};
    const hres = hop.responses ?? {};
    for (const code of new Set([...Object.keys(bres), ...Object.keys(hres)])) {
      const success = /^2/.test(code);
      const br = deref(base, bres[code]).node;
      const hr = deref(head, hres[code]).node;
      if (br && !hr)
        add(success ? 'breaking' : 'docs', `${success ? 'success' : 'error'} response removed: ${label} ${code}`);
      else if (!br && hr) {
        if (success) add('potentially breaking', `success response added: ${label} ${code}`);
        else
          add(
            'additive',
            `error response added: ${label} ${code}${problemCodesIn(hr.content).length ? ` (${list(problemCodesIn(hr.content))})` : ''}`,
          );
      }
      if (!br || !hr) continue;
      const rwhere = `${label} ${code}`;
      for (const type of new Set([...Object.keys(br.content ?? {}), ...Object.keys(hr.content ?? {})])) {
        const bm = br.content?.[type];
        const hm = hr.content?.[type];
        if (bm && !hm) add(success ? 'breaking' : 'docs', `${output} content type removed: ${rwhere} ${type}`);
        else if (!bm && hm)
          add(success ? 'potentially breaking' : 'additive', `${output} content type added: ${rwhere} ${type}`);
        else if (bm?.schema && hm?.schema)
          addAll(schemas.compare(bm.schema, hm.schema, `${rwhere} body`, output), rwhere);
      }
      const bh = Object.fromEntries(
        Object.entries(br.headers ?? {}).map(([n, v]) => [n.toLowerCase(), deref(base, v).node]),
      );
      const hh = Object.fromEntries(
        Object.entries(hr.headers ?? {}).map(([n, v]) => [n.toLowerCase(), deref(head, v).node]),
      );
      for (const name of new Set([...Object.keys(bh), ...Object.keys(hh)])) {
        fieldChange(
          (c, m) => add(c, m),
          output,
          'header',
          `${rwhere} ${name}`,
          bh[name] ? { required: !!bh[name].required } : false,
          hh[name] ? { required: !!hh[name].required } : false,
        );
        if (bh[name]?.schema && hh[name]?.schema)
          addAll(schemas.compare(bh[name].schema, hh[name].schema, `${rwhere} ${name}`, output), rwhere);
      }
    }
  }

  // Problem codes: clients branch on `code`, so a new one is a new case to handle (the SDK's union is open).
  const bcodes = problemCodes(base);
  const hcodes = problemCodes(head);
  for (const c of hcodes) if (!bcodes.has(c)) add('additive', `problem code added: ${c}`);
  for (const c of bcodes) if (!hcodes.has(c)) add('docs', `problem code no longer shown: ${c}`);

  for (const c of docsChanges(base, head)) add(c.class, c.message);
  return [...changes.values()].sort((a, b) => RANK[b.class] - RANK[a.class]);
}
