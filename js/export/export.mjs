// The exporters: a ProfilerTrace and/or what a probes window reported,
// written in any format of the core's format registry
// (src/export/format_registry.h), which is the one list of formats:
// exportFormats() reads it from the core, exportTrace(id, …) dispatches
// through it, and toChromeTrace/toCpuProfile/toPerfettoTrace/toPprof are its
// built-ins by name. The CLI, the Playwright fixture and the demo iterate
// exportFormats(), so a format added to the core reaches all of them.
// registerExportFormat() adds a format written in JS (for tools and tests);
// it is listed after the core's and never shadows one.
//
// Where they run: the writers are in the tools module (js/core/tools.mjs;
// in Node, the core itself), and so is their JS (js/export/write.mjs: the
// data path), both loaded by a Profiler's stop() or by loadExporters(); the
// registry (listing, dispatch, formats written in JS) is here, at load.
// Exports stay synchronous: called before the module was loaded, they throw
// a WebprofError that says to await loadExporters().
import { core } from '../core/core.mjs';
import { toolsJsLoaded, toolsJsNow } from '../core/tools.mjs';

/** Chrome Trace Event JSON ({"traceEvents":[...]}) as UTF-8 bytes. */
export function toChromeTrace(input, options = {}) {
  return exportTrace('chrome', input, options);
}

/** V8 .cpuprofile JSON (the profile only) as UTF-8 bytes. */
export function toCpuProfile(input) {
  return exportTrace('cpuprofile', input, {});
}

/** Perfetto protobuf trace (.pftrace) bytes. */
export function toPerfettoTrace(input, options = {}) {
  return exportTrace('perfetto', input, options);
}

/** pprof profile.proto, gzipped (profile.pb.gz; `go tool pprof`, Pyroscope, Parca). */
export function toPprof(input) {
  return exportTrace('pprof', input, {});
}

// ---- the registry ----
let coreFormats = null; // the core's list, read once (it is fixed per build)
const jsFormats = new Map(); // id -> entry with a JS `write`

// The load-time core lists the formats (src/export/format_list.h): listing
// them needs only `ready`, not the writers' tools module.
function coreList() {
  if (!coreFormats) {
    coreFormats = core()
      .exportFormats()
      .map((f) => ({
        id: f.key,
        name: f.name,
        extension: f.extension,
        mimeType: f.mimeType,
        fileName: `${f.fileStem}.${f.extension}`,
        coreId: f.id,
      }));
  }
  return coreFormats;
}

function findFormat(id) {
  return coreList().find((f) => f.id === id) || jsFormats.get(id);
}

/**
 * Every export format, the core's first: [{id, name, extension, mimeType, fileName}].
 * Needs the exporters (after a Profiler's stop() or `await loadExporters()`).
 */
export function exportFormats() {
  return [...coreList(), ...jsFormats.values()].map(({ id, name, extension, mimeType, fileName }) => ({
    id,
    name,
    extension,
    mimeType,
    fileName,
  }));
}

/** `input` written in export format `format` (an id of exportFormats()), as bytes. */
export function exportTrace(format, input, options = {}) {
  checkInput(input);
  const f = findFormat(format);
  if (!f) {
    const known = exportFormats()
      .map((x) => x.id)
      .join(', ');
    throw new TypeError(`webprof: unknown export format "${format}" (known: ${known})`);
  }
  if (f.coreId !== undefined) return toolsJsNow('exporting').exportAs(f.coreId, input, options ?? {});
  const out = f.write(input, options ?? {});
  if (out instanceof ArrayBuffer) return out;
  if (ArrayBuffer.isView(out)) return out.buffer.slice(out.byteOffset, out.byteOffset + out.byteLength);
  throw new TypeError(`webprof: export format "${format}" wrote ${typeof out}, not bytes`);
}

/**
 * Adds a format written in JS: {id, name, extension, mimeType, fileName?,
 * write(input, options) -> ArrayBuffer | TypedArray}. Returns a function
 * that removes it again. Ids are unique across the core's and JS formats.
 */
export function registerExportFormat(format) {
  const { id, name, extension, mimeType, write } = format || {};
  for (const [k, v] of Object.entries({ id, name, extension, mimeType }))
    if (typeof v !== 'string' || v === '')
      throw new TypeError(`webprof: registerExportFormat needs a non-empty string ${k}`);
  if (typeof write !== 'function')
    throw new TypeError('webprof: registerExportFormat needs a write function');
  if (findFormat(id)) throw new TypeError(`webprof: export format "${id}" already exists`);
  const entry = {
    id,
    name,
    extension,
    mimeType,
    fileName: format.fileName === undefined ? `${id}.${extension}` : String(format.fileName),
    write,
  };
  jsFormats.set(id, entry);
  return () => {
    if (jsFormats.get(id) === entry) jsFormats.delete(id);
  };
}

function checkInput(input) {
  if (input === null || typeof input !== 'object') {
    throw new TypeError('webprof: export input must be an object {profile?, marks?, traces?, aggregates?}');
  }
}

/** Where the last export spent its time: {loadMs, writeMs, copyMs, bytes} (for benchmarks). */
export function lastExportTimings() {
  const js = toolsJsLoaded();
  return js ? js.lastExportTimings() : null;
}
