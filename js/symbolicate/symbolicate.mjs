// Source maps applied to a ProfilerTrace: frames move from generated
// (bundle) positions to the original function, file and line. The core
// decodes each map and picks each frame's original function and name
// (src/symbolicate/: v3 + index maps, the function finder on sourcesContent);
// this module only hands it the map text and the frames' positions in bulk
// and builds the new trace from its rows.
//
// Result: a new W3C trace (the input is not changed). Mapped frames carry
// their original name, resource, line and column and keep where they were
// sampled in `generated: {name, resourceId, line, column}`; original files
// are appended to `resources`. Stacks and samples are the input's. A map that
// does not parse leaves its script's frames as they were and is reported in
// `symbolication.errors` as {resource, message}; the other scripts are mapped.
// Ownership: each map lives in Wasm memory only during the call.
//
// Both entry points are asynchronous: the maps are decoded by the tools
// module, which a page fetches on first use (js/core/tools.mjs).
import { WebprofError } from '../core/core.mjs';
import { boundary, check } from '../core/boundary.mjs';
import { withTools } from '../core/tools.mjs';

const NONE = 0xffffffff;
const encoder = new TextEncoder();

function mapText(map) {
  if (typeof map === 'string') return map;
  if (map instanceof ArrayBuffer || ArrayBuffer.isView(map)) return map;
  if (map !== null && typeof map === 'object') return JSON.stringify(map);
  throw new TypeError('a source map must be JSON text, bytes or an object');
}

/**
 * @param {{resources: string[], frames: object[], stacks: object[], samples: object[]}} trace
 * @param {Record<string, string|object|ArrayBuffer|Uint8Array> | Map<string, any>} maps
 *   script URL (as in trace.resources) -> its source map
 * @param {{mapUrls?: Record<string, string>}} [options] mapUrls: where each
 *   map was found (relative `sources` resolve against it; default: the script URL)
 * @returns {Promise<object>} the new trace
 */
export async function symbolicate(trace, maps, options = {}) {
  if (
    trace === null ||
    typeof trace !== 'object' ||
    !Array.isArray(trace.frames) ||
    !Array.isArray(trace.resources)
  )
    throw new TypeError('webprof: symbolicate needs a ProfilerTrace {resources, frames, stacks, samples}');
  const entries = maps instanceof Map ? [...maps] : Object.entries(maps ?? {});
  const mapUrls = options.mapUrls ?? {};
  const resources = [...trace.resources];
  const frames = trace.frames.map((f) => ({ ...f }));
  const errors = [];
  let mapped = 0;
  const resourceIds = new Map(resources.map((u, i) => [u, i]));
  const resourceId = (url) => {
    let id = resourceIds.get(url);
    if (id === undefined) {
      id = resources.push(url) - 1;
      resourceIds.set(url, id);
    }
    return id;
  };
  for (const [url, map] of entries) {
    const rid = trace.resources.indexOf(url);
    if (rid < 0 || map == null) continue;
    const which = [];
    frames.forEach((f, i) => {
      if (f.resourceId === rid && f.line > 0 && f.column > 0) which.push(i);
    });
    if (!which.length) continue;
    let rows;
    try {
      rows = await withTools((m) =>
        resolveFrames(
          m,
          mapText(map),
          mapUrls[url] ?? url,
          which.map((i) => frames[i]),
        ),
      );
    } catch (e) {
      if (!(e instanceof TypeError)) throw e;
      rows = { error: e.message };
    }
    if (rows.error !== undefined) {
      errors.push({ resource: url, message: `webprof: source map of ${url}: ${rows.error}` });
      continue;
    }
    {
      for (let k = 0; k < which.length; k++) {
        const r = rows.rows;
        if (r[k * 4] === NONE) continue;
        const f = frames[which[k]];
        const name = r[k * 4 + 3] === NONE ? f.name : rows.names[r[k * 4 + 3]];
        frames[which[k]] = {
          name,
          resourceId: resourceId(rows.sources[r[k * 4]]),
          line: r[k * 4 + 1],
          column: r[k * 4 + 2],
          generated: { name: f.name, resourceId: f.resourceId, line: f.line, column: f.column },
        };
        mapped++;
      }
    }
  }
  return {
    ...trace,
    resources,
    frames,
    symbolication: { mapped, errors },
  };
}

/**
 * A decoded source map for many lookups (webprof extension): `lookup(positions)`
 * takes [line, column, line, column, …] (1-based) and returns a Uint32Array of
 * [source, line, column, name] rows (0xffffffff = none; `sources`/`names` index
 * them). The map lives in Wasm memory until dispose(). Resolves once the
 * tools module is loaded (js/core/tools.mjs); rejects with a WebprofError
 * (code SourceMapInvalid, the core's message) for a malformed map.
 */
export async function openSourceMap(map, mapUrl = '') {
  return withTools((m) => {
    const h = new m.SourceMapHandle();
    try {
      const error = parseInto(m, h, mapText(map), String(mapUrl));
      if (error !== undefined) throw new WebprofError(`webprof: source map: ${error}`, 'SourceMapInvalid');
    } catch (e) {
      h.delete();
      throw e;
    }
    const sources = [];
    for (let i = 0, c = h.sourceCount(); i < c; i++) sources.push(h.source(i));
    let names = null;
    return {
      sources,
      get names() {
        if (!names) names = Array.from({ length: h.nameCount() }, (_, i) => h.name(i));
        return names;
      },
      segmentCount: h.segmentCount(),
      // Synchronous: the tools module is loaded by now.
      lookup(positions) {
        const n = positions.length >> 1;
        const inp = m._malloc(Math.max(8, n * 8));
        const out = m._malloc(Math.max(16, n * 16));
        try {
          m.HEAPU32.set(positions, inp >> 2);
          h.lookup(inp, n, out);
          return m.HEAPU32.slice(out >> 2, (out >> 2) + n * 4);
        } finally {
          m._free(inp);
          m._free(out);
        }
      },
      dispose() {
        h.delete();
      },
    };
  });
}

// Parses `text` into handle `h`: undefined, or the error of a malformed map.
function parseInto(m, h, text, mapUrl) {
  const bytes =
    typeof text === 'string'
      ? null
      : new Uint8Array(text.buffer ?? text, text.byteOffset ?? 0, text.byteLength);
  const max = bytes ? bytes.length : text.length * 3;
  const p = m._malloc(Math.max(8, max));
  if (!p) return 'no memory for a map this large';
  try {
    let len;
    if (bytes) {
      m.HEAPU8.set(bytes, p);
      len = bytes.length;
    } else {
      len = encoder.encodeInto(text, m.HEAPU8.subarray(p, p + max)).written;
    }
    const status = h.parse(p, len, mapUrl);
    if (status === boundary().status.SourceMapInvalid) return h.error();
    check(status, 'source map');
    return undefined;
  } finally {
    m._free(p);
  }
}

// The core's rows for `frames` of one script: {rows: Uint32Array of
// [source, line, column, name], sources: string[], names: string[]}, or
// {error} when the map is malformed.
function resolveFrames(m, text, mapUrl, frames) {
  const h = new m.SourceMapHandle();
  const ptrs = [];
  try {
    const error = parseInto(m, h, text, mapUrl);
    if (error !== undefined) return { error };
    const n = frames.length;
    const inp = m._malloc(n * 8);
    ptrs.push(inp);
    const out = m._malloc(n * 16);
    ptrs.push(out);
    const pos = new Uint32Array(n * 2);
    frames.forEach((f, i) => {
      pos[i * 2] = f.line;
      pos[i * 2 + 1] = f.column;
    });
    m.HEAPU32.set(pos, inp >> 2);
    h.resolve(inp, n, out);
    const rows = m.HEAPU32.slice(out >> 2, (out >> 2) + n * 4);
    const sources = [];
    for (let i = 0, c = h.sourceCount(); i < c; i++) sources.push(h.source(i));
    const names = h.resolvedNames().split('\0');
    return { rows, sources, names };
  } finally {
    for (const p of ptrs) m._free(p);
    h.delete();
  }
}
