// The classified diff of two OpenAPI documents: operations, security, parameters, bodies, responses, problem codes.
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
      if (item[m]) ops.set(`${m} ${path.replace(/\{[^}]*\}/g, '{}')}`, { label: `${m.toUpperCase()} ${path}`, op: item[m], shared: item.parameters ?? [], webhook: false });
    }
  }
  for (const [name, item0] of Object.entries(doc.webhooks ?? {})) {
    const item = deref(doc, item0).node ?? {};
    for (const m of METHODS) {
      if (item[m]) ops.set(`webhook ${name} ${m}`, { label: `webhook ${name}`, op: item[m], shared: item.parameters ?? [], webhook: true });
    }
  }
  return ops;
}

function parametersOf(doc, entry) {
  const map = new Map();
  for (const p0 of [...entry.shared, ...(entry.op.parameters ?? [])]) {
    const p = deref(doc, p0).node;
    if (!p?.name) continue;
    map.set(`${p.in}.${p.in === 'header' ? p.name.toLowerCase() : p.name}`, p);
  }
  return map;
}

function securityOf(doc, op) {
  return (op.security ?? doc.security ?? []).map((alt) => Object.fromEntries(Object.entries(alt).map(([k, v]) => [k, [...(v ?? [])].sort()])));
}
const securityText = (alts) =>
  alts.length ? alts.map((alt) => Object.entries(alt).map(([k, v]) => `${k}[${v.join(', ')}]`).join(' + ') || 'anonymous').join(' | ') : 'none';
/** True when credentials meeting `old` alternative also meet some alternative of `next`. */
const satisfies = (old, next) => next.some((alt) => Object.entries(alt).every(([k, scopes]) => old[k] && scopes.every((s) => old[k].includes(s))));

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
    if (!Array.isArray(node) && node.content && typeof node.content === 'object') for (const c of problemCodesIn(node.content)) codes.add(c);
    for (const v of Object.values(node)) visit(v);
  };
  visit(doc.paths);
  visit(doc.webhooks);
  visit(doc.components);
  return codes;
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
  const addAll = (list, at) => list.forEach((c) => add(c.class, c.message, at));

  const bops = operationsOf(base);
  const hops = operationsOf(head);
  for (const [key, { label }] of bops) if (!hops.has(key)) add('breaking', `operation removed: ${label}`);
  for (const [key, { label }] of hops) if (!bops.has(key)) add('additive', `operation added: ${label}`);

  for (const [key, bentry] of bops) {
    const hentry = hops.get(key);
    if (!hentry) continue;
    const { op: bop } = bentry;
    const { op: hop, label } = hentry;
    // What the SDK sends, and what it receives; a webhook is the other way round.
    /** @type {Dir} */ const input = hentry.webhook ? 'response' : 'request';
    /** @type {Dir} */ const output = hentry.webhook ? 'request' : 'response';

    // Who may call it.
    const bsec = securityOf(base, bop);
    const hsec = securityOf(head, hop);
    if (!same(bsec, hsec)) {
      const relaxed = bsec.every((alt) => satisfies(alt, hsec));
      add(relaxed ? 'additive' : 'breaking', `security ${relaxed ? 'relaxed' : 'changed'}: ${label} ${securityText(bsec)} → ${securityText(hsec)}`);
    }
    const bplan = bop['x-plan-features'] ?? [];
    const hplan = hop['x-plan-features'] ?? [];
    const planAdded = hplan.filter((f) => !bplan.includes(f));
    const planGone = bplan.filter((f) => !hplan.includes(f));
    if (planAdded.length) add('breaking', `plan features added: ${label} (${list(planAdded)})`);
    if (planGone.length) add('additive', `plan features removed: ${label} (${list(planGone)})`);

    // Parameters.
    const bpar = parametersOf(base, bentry);
    const hpar = parametersOf(head, hentry);
    for (const name of new Set([...bpar.keys(), ...hpar.keys()])) {
      const bp = bpar.get(name);
      const hp = hpar.get(name);
      fieldChange((c, m) => add(c, m), input, 'parameter', `${label} ${name}`, bp ? { required: !!bp.required } : false, hp ? { required: !!hp.required } : false);
      // Labelled by the operation already; a `$ref`'d schema is labelled by its name, and says where it is used.
      if (bp?.schema && hp?.schema) addAll(schemas.compare(bp.schema, hp.schema, `${label} ${name}`, input), label);
    }

    // Request body.
    const bbody = deref(base, bop.requestBody).node;
    const hbody = deref(head, hop.requestBody).node;
    const where = `${label} body`;
    if (bbody && !hbody) add('breaking', `${input} body removed: ${label}`);
    else if (!bbody && hbody) add(hbody.required ? 'breaking' : 'additive', `${input} body added${hbody.required ? ' (required)' : ''}: ${label}`);
    else if (bbody && hbody) {
      if (!!bbody.required !== !!hbody.required) {
        if (input === 'request') add(hbody.required ? 'breaking' : 'additive', `request body ${hbody.required ? 'newly required' : 'now optional'}: ${label}`);
        else add(hbody.required ? 'additive' : 'breaking', `response body ${hbody.required ? 'now always present' : 'no longer always present'}: ${label}`);
      }
      for (const type of new Set([...Object.keys(bbody.content ?? {}), ...Object.keys(hbody.content ?? {})])) {
        const bm = bbody.content?.[type];
        const hm = hbody.content?.[type];
        if (bm && !hm) add('breaking', `${input} content type removed: ${label} ${type}`);
        else if (!bm && hm) add('additive', `${input} content type added: ${label} ${type}`);
        else if (bm?.schema && hm?.schema) addAll(schemas.compare(bm.schema, hm.schema, where, input), label);
      }
    }

    // Responses (a webhook's are what the user's receiver answers: docs for the SDK).
    if (hentry.webhook) continue;
    const bres = bop.responses ?? {};
    const hres = hop.responses ?? {};
    for (const code of new Set([...Object.keys(bres), ...Object.keys(hres)])) {
      const success = /^2/.test(code);
      const br = deref(base, bres[code]).node;
      const hr = deref(head, hres[code]).node;
      if (br && !hr) add(success ? 'breaking' : 'docs', `${success ? 'success' : 'error'} response removed: ${label} ${code}`);
      else if (!br && hr) {
        if (success) add('potentially breaking', `success response added: ${label} ${code}`);
        else add('additive', `error response added: ${label} ${code}${problemCodesIn(hr.content).length ? ` (${list(problemCodesIn(hr.content))})` : ''}`);
      }
      if (!br || !hr) continue;
      const rwhere = `${label} ${code}`;
      for (const type of new Set([...Object.keys(br.content ?? {}), ...Object.keys(hr.content ?? {})])) {
        const bm = br.content?.[type];
        const hm = hr.content?.[type];
        if (bm && !hm) add(success ? 'breaking' : 'docs', `${output} content type removed: ${rwhere} ${type}`);
        else if (!bm && hm) add(success ? 'potentially breaking' : 'additive', `${output} content type added: ${rwhere} ${type}`);
        else if (bm?.schema && hm?.schema) addAll(schemas.compare(bm.schema, hm.schema, `${rwhere} body`, output), rwhere);
      }
      const bh = Object.fromEntries(Object.entries(br.headers ?? {}).map(([n, v]) => [n.toLowerCase(), deref(base, v).node]));
      const hh = Object.fromEntries(Object.entries(hr.headers ?? {}).map(([n, v]) => [n.toLowerCase(), deref(head, v).node]));
      for (const name of new Set([...Object.keys(bh), ...Object.keys(hh)])) {
        fieldChange((c, m) => add(c, m), output, 'header', `${rwhere} ${name}`, bh[name] ? { required: !!bh[name].required } : false, hh[name] ? { required: !!hh[name].required } : false);
        if (bh[name]?.schema && hh[name]?.schema) addAll(schemas.compare(bh[name].schema, hh[name].schema, `${rwhere} ${name}`, output), rwhere);
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
