// The full core's object API over its plain exports. The page's core and the
// Node-side tools' core export `extern "C"` functions only (no embind: its
// runtime was most of the page's JS glue; wasm/bind_*.cpp), one per method,
// each taking the object's address first: `wp_<class>_new(...)` makes one,
// `wp_<class>_delete` frees it. This module gives the modules of js/ the
// objects they call (`new m.Session(...)`, `s.samples()`, `s.delete()`) and
// the module-level functions (`m.statusName(code)`), converting results only:
// a call that returns more than a number leaves its bytes at `wp_result()`
// for `wp_result_len()` bytes (wasm/bind_util.h SetResult), read here at
// once as text, JSON or a typed-array view (valid until the next core call:
// callers copy, as they always have). Ownership is unchanged: whoever makes
// an object delete()s it.

const decoder = new TextDecoder();
const encoder = new TextEncoder();

/**
 * Installs the object API on `m` (an instantiated page or Node-side core:
 * `_wp_*` exports and HEAP views) and returns it.
 */
export function installBindings(m) {
  const bytes = () => {
    const p = m._wp_result();
    return m.HEAPU8.subarray(p, p + m._wp_result_len());
  };
  const text = () => decoder.decode(bytes());
  const json = () => JSON.parse(text());
  const rows = (View) => () =>
    new View(m.HEAPU8.buffer, m._wp_result(), m._wp_result_len() / View.BYTES_PER_ELEMENT);
  const u32 = rows(Uint32Array);
  // Records passed in: a copy in a buffer of this module's for fn(ptr).
  const withWords = (words, fn) => {
    const p = m._malloc(Math.max(4, words.byteLength));
    try {
      m.HEAPU32.set(words, p >>> 2);
      return fn(p);
    } finally {
      m._free(p);
    }
  };
  // Text passed in: UTF-8 in the scratch buffer (wasm/bind_boundary.cpp).
  const scratch = (s) => {
    const max = s.length * 3;
    const ptr = m._wp_scratch(max);
    return [ptr, encoder.encodeInto(s, m.HEAPU8.subarray(ptr, ptr + max)).written];
  };

  // A class over `wp_<prefix>_*`: `methods` lists each JS method as `name`
  // (export wp_<prefix>_<snake_name>) or `name:export_suffix`; `results`
  // maps a method to the reader of its result.
  const bind = (prefix, methods, results = {}) => {
    const C = class {
      constructor(...args) {
        this.p = m[`_wp_${prefix}_new`](...args);
      }
      delete() {
        m[`_wp_${prefix}_delete`](this.p);
      }
    };
    for (const spec of methods.split(' ')) {
      const [name, suffix = name.replace(/[A-Z]/g, (c) => '_' + c.toLowerCase())] = spec.split(':');
      // Looked up per call: an Emscripten loader replaces its lazy wrapper
      // after the first call (TOOLCHAIN.md).
      const key = `_wp_${prefix}_${suffix}`;
      const read = results[name];
      C.prototype[name] = read
        ? function (...args) {
            m[key](this.p, ...args);
            return read();
          }
        : function (...args) {
            return m[key](this.p, ...args);
          };
    }
    return C;
  };

  m.Session = bind(
    'session',
    'handle state sampleInterval maxBufferSize pause resume stop internResource internFrame internStack ' +
      'sampleCount resourceCount nameCount samples stacks frames name resource',
    { samples: rows(Float64Array), stacks: u32, frames: u32, name: text, resource: text },
  );
  m.ExportBuilder = bind(
    'export',
    'addMarks addTraces addAggregates useWindow setThread useSession write summarize size chunkCount chunkPtr ' +
      'chunkLength clearOutput',
    { summarize: json },
  );
  m.TraceLoad = bind(
    'trace_load',
    'loadResources:resources loadFrames:frames loadStacks:stacks reserveSamples:reserve ' +
      'reservedSamples:reserved commitSamples:commit finish',
  );
  m.RuntimeProfile = bind('runtime', 'configure annotate unclassified clearAnnotations resultsJson', {
    unclassified: text,
    resultsJson: bytes,
  });
  // Frame definitions in the page's core (wasm/bind_fidelity.cpp): a
  // session's frame positions out, their definitions in, as records JS
  // carries between this module and the tools module unread.
  m.FrameDefinitions = bind(
    'frame_definitions',
    'positions take clear handle resolve framesIn framesOut framesResolved',
    { positions: () => u32().slice() },
  );
  m.FrameDefinitions.prototype.take = function (session, records) {
    return withWords(records, (p) => m._wp_frame_definitions_take(this.p, session, p, records.length));
  };
  // The index of source scans (wasm/bind_scan.cpp, where linked: the tools
  // module, the Node-side core).
  m.SourceIndex = bind('source_index', 'remove');
  m.SourceIndex.prototype.remove = function (url) {
    m._wp_source_index_remove(this.p, ...scratch(url));
  };
  // Scans `text` as the script at `url`; returns a Status.
  m.SourceIndex.prototype.add = function (url, text, html) {
    const urlLen = encoder.encode(url).length;
    const [ptr, len] = scratch(url + text);
    return m._wp_source_index_add(this.p, ptr, urlLen, len - urlLen, html);
  };
  // The definitions of the frames at `positions` (FrameDefinitions.positions,
  // maybe another module's): {status, records: a copy}.
  m.SourceIndex.prototype.define = function (positions) {
    const status = withWords(positions, (p) => m._wp_source_index_define(this.p, p, positions.length));
    return { status, records: u32().slice() };
  };
  m.SourceMapHandle = bind(
    'source_map',
    'error sourceCount source nameCount name segmentCount lookup resolve resolvedNames',
    { error: text, source: text, name: text, resolvedNames: text },
  );
  // The map text is in a buffer the caller malloc()ed; its URL goes through scratch.
  m.SourceMapHandle.prototype.parse = function (ptr, len, mapUrl) {
    return m._wp_source_map_parse(this.p, ptr, len, ...scratch(String(mapUrl)));
  };

  const call =
    (fn, read) =>
    (...args) => {
      fn(...args);
      return read();
    };
  m.statusMessage = call((s) => m._wp_status_message(s), text);
  m.statusName = call((s) => m._wp_status_name(s), text);
  m.exportFormats = call(() => m._wp_export_formats(), json);
  m.findProbeSites = (ptr, len, exitChecks) => m._wp_probe_sites_find(ptr, len, exitChecks);
  m.probeSitesView = call(() => m._wp_probe_sites_view(), u32);
  m.findHtmlScripts = call((ptr, len) => m._wp_html_scripts_find(ptr, len), u32);
  m.probeSitesPrelude = () => m._wp_probe_sites_prelude();
  m.probeSitesModuleSyntax = () => !!m._wp_probe_sites_module_syntax();
  m.probeSitesUnwrapped = () => m._wp_probe_sites_unwrapped();
  m.probeSitesUnguarded = () => m._wp_probe_sites_unguarded();
  // The transform's edit kinds, in the builds that link it.
  if (m._wp_probe_site_kinds) {
    m._wp_probe_site_kinds();
    Object.assign(m, json());
  }
  m.trimTrace = (from, into, maxSamples, dropIdle) => {
    const status = m._wp_trim_trace(from, into, maxSamples, dropIdle);
    const [idleDropped, thinnedDropped] = rows(Float64Array)();
    return { status, idleDropped, thinnedDropped };
  };
  return m;
}
