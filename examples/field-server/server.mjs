// An example server for webprof's field collection (collectProfiles in the
// page): receives the reporter's POSTs, checks them, maps their frames with
// the release's source maps, stores them per release and serves each
// release's merged profile as pprof for `go tool pprof` or a
// continuous-profiling server to scrape. Node's standard library and
// webprof only; README.md says how to run it and what each route answers.
//
// Storage: <data>/<release>/<time>-<random>.json, one per page load: the
// symbolicated W3C trace, the payload's metadata in its `field` member.
// Source maps: <maps>/<release>/<URL path of the script>.map, e.g. the map
// of https://shop.example/assets/app.js for release 1.4.2 is
// maps/1.4.2/assets/app.js.map — what a build's output folder holds when
// copied there at deploy time, before the release's first page load.
import { createServer } from 'node:http';
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, readdir, writeFile } from 'node:fs/promises';
import { join, normalize, resolve, sep } from 'node:path';
import { gunzip } from 'node:zlib';
import { promisify } from 'node:util';
import { ready, importTrace, releaseTrace, symbolicate } from 'webprof';
import { ProfileMerger } from 'webprof/merge';

const gunzipAsync = promisify(gunzip);

export const FORMAT = 'webprof-field/1';
const RELEASE = /^[A-Za-z0-9][A-Za-z0-9._+-]{0,127}$/;

/** An answer with a status and a sentence (what the client sees and counts). */
export class HttpError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

/**
 * @param {{data: string, maps?: string, maxBodyBytes?: number, maxJsonBytes?: number,
 *   merge?: (files: string[]) => Promise<Uint8Array>}} options
 *   maxBodyBytes: the body as sent (default 1 MiB); maxJsonBytes: after gunzip
 *   (default 16 MiB: a gzip bomb stops there); merge: the release's stored
 *   files -> profile.pb.gz bytes.
 */
export function createFieldServer(options) {
  const o = {
    maps: null,
    merge: mergeToPprof,
    maxBodyBytes: 1024 * 1024,
    maxJsonBytes: 16 * 1024 * 1024,
    ...options,
  };
  if (!o.data) throw new TypeError('createFieldServer needs {data: a directory}');
  return createServer((req, res) => {
    route(o, req, res).catch((e) => {
      const status = e instanceof HttpError ? e.status : 500;
      if (status === 500) console.error(e);
      // The rest of a body over the limit is not read: the connection ends with this answer.
      if (status === 413) res.setHeader('Connection', 'close');
      reply(res, status, { error: e instanceof HttpError ? e.message : 'internal error' });
    });
  });
}

async function route(o, req, res) {
  const url = new URL(req.url, 'http://localhost');
  if (req.method === 'OPTIONS') return reply(res, 204, null);
  if (url.pathname === '/ingest') {
    if (req.method !== 'POST') throw new HttpError(405, 'POST the payload to /ingest');
    const body = await readBody(req, o.maxBodyBytes);
    const stored = await ingest(o, body);
    return reply(res, 202, stored);
  }
  if (req.method !== 'GET') throw new HttpError(405, `${req.method} is not served here`);
  if (url.pathname === '/releases') return reply(res, 200, await listReleases(o));
  const m = /^\/pprof\/([^/]+)$/.exec(url.pathname);
  if (m) {
    const release = checkRelease(decoded(m[1]));
    const files = await storedFiles(o, release);
    if (!files.length) throw new HttpError(404, `no profiles stored for release ${release}`);
    if (!o.merge) throw new HttpError(501, 'this server was started without a merger');
    const pb = await o.merge(files);
    res.writeHead(200, {
      'Content-Type': 'application/octet-stream',
      'Content-Disposition': `attachment; filename="profile-${release}.pb.gz"`,
      'Content-Length': pb.byteLength,
      'Access-Control-Allow-Origin': '*',
    });
    return res.end(pb);
  }
  throw new HttpError(404, `no route ${url.pathname}: POST /ingest, GET /releases, GET /pprof/<release>`);
}

function reply(res, status, json) {
  const headers = {
    'Access-Control-Allow-Origin': '*',
    'Access-Control-Allow-Methods': 'GET, POST, OPTIONS',
    'Access-Control-Allow-Headers': 'Content-Type, Content-Encoding',
  };
  if (json === null) {
    res.writeHead(status, headers);
    return res.end();
  }
  const text = JSON.stringify(json);
  res.writeHead(status, { ...headers, 'Content-Type': 'application/json' });
  res.end(text);
}

// The body, refused with 413 as soon as it passes `limit` bytes. What the
// client still sends is drained, not buffered: destroying the request would
// reset the socket before the 413 reaches the client.
function readBody(req, limit) {
  const declared = Number(req.headers['content-length']);
  if (declared > limit) {
    req.resume();
    return Promise.reject(new HttpError(413, `body of ${declared} bytes is over the limit of ${limit}`));
  }
  return new Promise((resolve, reject) => {
    const chunks = [];
    let size = 0;
    req.on('data', (c) => {
      size += c.length;
      if (size > limit) {
        req.removeAllListeners('data');
        req.resume();
        chunks.length = 0;
        reject(new HttpError(413, `body is over the limit of ${limit} bytes`));
        return;
      }
      chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/**
 * Checks one payload (gzip or JSON bytes), maps it and stores it.
 * Resolves {release, id, samples, mapped, mapErrors}; rejects with an
 * HttpError: 400 not gzip / not JSON, 413 too large, 422 not a
 * webprof-field/1 payload (the message says which member).
 */
export async function ingest(o, body) {
  const text = await decode(body, o.maxJsonBytes);
  let doc;
  try {
    doc = JSON.parse(text);
  } catch (e) {
    throw new HttpError(400, `body is not JSON: ${e.message}`);
  }
  const payload = checkPayload(doc);
  await ready;
  let imported;
  try {
    // The core's one W3C loader: every index in range, parents first,
    // samples in time order, or a WebprofError naming the table.
    imported = importTrace(payload.trace, payload.sampleInterval, () => false);
  } catch (e) {
    throw new HttpError(422, `trace: ${e.message}`);
  }
  let mapped;
  try {
    const maps = await mapsFor(o, payload.release, imported.resources);
    mapped = await symbolicate(imported, maps);
  } finally {
    releaseTrace(imported);
  }
  const id = `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomBytes(4).toString('hex')}`;
  const dir = join(o.data, payload.release);
  await mkdir(dir, { recursive: true });
  // A W3C ProfilerTrace file (what the merger reads) with the payload's
  // metadata beside the four tables.
  const { trace: _, ...meta } = payload;
  await writeFile(
    join(dir, `${id}.json`),
    JSON.stringify({ ...mapped, field: { ...meta, received: Date.now() } }),
  );
  return {
    release: payload.release,
    id,
    samples: mapped.samples.length,
    mapped: mapped.symbolication.mapped,
    mapErrors: mapped.symbolication.errors.map((e) => e.message),
  };
}

async function decode(body, maxJsonBytes) {
  if (body.length >= 2 && body[0] === 0x1f && body[1] === 0x8b) {
    try {
      return (await gunzipAsync(body, { maxOutputLength: maxJsonBytes })).toString('utf8');
    } catch (e) {
      if (e.code === 'ERR_BUFFER_TOO_LARGE')
        throw new HttpError(413, `body inflates past the limit of ${maxJsonBytes} bytes`);
      throw new HttpError(400, `body is not valid gzip: ${e.message}`);
    }
  }
  if (body.length > maxJsonBytes) throw new HttpError(413, `body is over the limit of ${maxJsonBytes} bytes`);
  const text = body.toString('utf8');
  if (!/^\s*\{/.test(text)) throw new HttpError(400, 'body is neither gzip (1f 8b) nor a JSON object');
  return text;
}

// A URL part with its %-escapes decoded; a malformed escape (decodeURIComponent
// would throw a URIError, a 500) stays as sent: the caller's checks refuse it
// or it names no file.
function decoded(part) {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}

// A payload without a release (collectProfiles()'s default, "") is stored
// and served under this name, which no release name can be (they start with
// a letter or a digit).
const NO_RELEASE = '_none';

function checkRelease(release) {
  if (release === NO_RELEASE) return release;
  if (typeof release !== 'string' || !RELEASE.test(release) || release.includes('..'))
    throw new HttpError(
      422,
      `release must be 1-128 characters of A-Z a-z 0-9 . _ + - (not starting with . _ + -), got ${JSON.stringify(release)}`,
    );
  return release;
}

const isNumber = (v) => typeof v === 'number' && Number.isFinite(v);

// The payload's members the server relies on; others are kept as sent.
function checkPayload(doc) {
  const bad = (what) => new HttpError(422, `not a ${FORMAT} payload: ${what}`);
  if (doc === null || typeof doc !== 'object' || Array.isArray(doc)) throw bad('the body is not an object');
  if (doc.format !== FORMAT) throw bad(`format is ${JSON.stringify(doc.format)}, expected "${FORMAT}"`);
  doc.release = doc.release === undefined || doc.release === '' ? NO_RELEASE : checkRelease(doc.release);
  if (!isNumber(doc.sampleInterval) || doc.sampleInterval < 0)
    throw bad('sampleInterval must be a number >= 0');
  for (const key of ['page', 'userAgent', 'sampler', 'reason'])
    if (doc[key] !== undefined && typeof doc[key] !== 'string') throw bad(`${key} must be a string`);
  const t = doc.trace;
  if (t === null || typeof t !== 'object') throw bad('trace is missing');
  for (const key of ['resources', 'frames', 'stacks', 'samples'])
    if (!Array.isArray(t[key])) throw bad(`trace.${key} must be an array`);
  if (!t.resources.every((r) => typeof r === 'string')) throw bad('trace.resources must hold strings');
  for (const [i, f] of t.frames.entries())
    if (f === null || typeof f !== 'object' || typeof f.name !== 'string')
      throw bad(`trace.frames[${i}] must be an object with a string name`);
  for (const [i, s] of t.stacks.entries())
    if (s === null || typeof s !== 'object' || !Number.isInteger(s.frameId))
      throw bad(`trace.stacks[${i}] must be an object with an integer frameId`);
  for (const [i, s] of t.samples.entries())
    if (s === null || typeof s !== 'object' || !isNumber(s.timestamp))
      throw bad(`trace.samples[${i}] must be an object with a numeric timestamp`);
  return doc;
}

// The release's map of each script URL that has one on disk.
async function mapsFor(o, release, urls) {
  const maps = {};
  if (!o.maps) return maps;
  const base = resolve(o.maps, release);
  for (const url of urls) {
    let path;
    try {
      path = new URL(url).pathname;
    } catch {
      continue;
    }
    const file = resolve(base, normalize(`.${decoded(path)}.map`));
    if (!file.startsWith(base + sep)) continue;
    try {
      maps[url] = await readFile(file);
    } catch {
      /* no map for this script: its frames stay as sampled */
    }
  }
  return maps;
}

/** The release's stored traces added up by webprof's merger, as profile.pb.gz bytes. */
export async function mergeToPprof(files) {
  await ready;
  const merger = new ProfileMerger();
  try {
    for (const file of files) merger.add(file);
    return new Uint8Array(merger.write('pprof'));
  } finally {
    merger.dispose();
  }
}

/** The stored payload files of a release, oldest first. */
export async function storedFiles(o, release) {
  const dir = join(o.data, release);
  let names;
  try {
    names = await readdir(dir);
  } catch {
    return [];
  }
  return names
    .filter((n) => n.endsWith('.json'))
    .sort()
    .map((n) => join(dir, n));
}

async function listReleases(o) {
  let names = [];
  try {
    names = await readdir(o.data);
  } catch {
    /* nothing stored yet */
  }
  const out = [];
  for (const release of names.filter((n) => n === NO_RELEASE || RELEASE.test(n)).sort())
    out.push({ release, profiles: (await storedFiles(o, release)).length, pprof: `/pprof/${release}` });
  return out;
}
