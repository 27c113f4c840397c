// Merging profiles in Node (`webprof/merge`, `webprof merge`): any number of
// inputs — W3C ProfilerTrace JSON, Chrome trace JSON, .cpuprofile, Gecko
// profile JSON; files, bytes or streams, gzipped or not — added up into one
// weighted profile by the core's merger (src/merge/profile_merger.h has every
// rule: function identity, a sample's time, the totals) and written in every
// format of the format registry.
//
// Data path: an input's bytes go straight into a buffer in Wasm memory in
// chunks (a file by fs.readSync into the Wasm heap, a stream chunk by chunk),
// never into a JS string or object; the core imports it, folds it into the
// merged tables and drops it. Memory is the merged tables plus the largest
// single input, whatever the number of inputs.
// Ownership: a ProfileMerger owns its core object until dispose(); outputs
// are ArrayBuffer copies the caller owns.
import { closeSync, openSync, readSync, readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { core, guard, ready, WebprofError } from '../core/core.mjs';
import { boundary, check } from '../core/boundary.mjs';
import { Heap, copyChunks } from '../core/heap.mjs';

export { ready, WebprofError };

const CHUNK = 1 << 20;
const encoder = new TextEncoder();

let formats = null; // the core's formats (src/export/format_list.h), read once
function coreFormats() {
  return formats || (formats = core().exportFormats());
}

const isGzip = (b) => b.length >= 2 && b[0] === 0x1f && b[1] === 0x8b;

// What errors call an input: its path, else its place in the list.
function inputName(input, index = 0) {
  if (typeof input === 'string' && !/^\s*[[{]/.test(input)) return input;
  if (input instanceof URL) return input.href;
  return `input ${index + 1}`;
}

export class ProfileMerger {
  #h;
  #m;

  /**
   * @param {{sourceMaps?: Record<string, any> | Map<string, any>, mapUrls?: Record<string, string>}} [options]
   *   sourceMaps: script URL, or a bare file name ("app.js": any URL ending in /app.js), -> its map
   *   (JSON text, bytes or an object), applied before functions are compared; mapUrls: where each map
   *   was found (relative `sources` resolve against it; default: as written).
   * Needs the core: `await ready` first.
   */
  constructor(options = {}) {
    this.#m = core();
    this.#h = guard((m) => new m.ProfileMerge());
    try {
      const maps = options.sourceMaps;
      const entries = maps instanceof Map ? [...maps] : Object.entries(maps ?? {});
      for (const [script, map] of entries) this.addSourceMap(script, map, options.mapUrls?.[script]);
    } catch (e) {
      this.dispose();
      throw e;
    }
  }

  #handle() {
    if (!this.#h) throw new WebprofError('webprof: this ProfileMerger is disposed');
    return this.#h;
  }

  // Appends bytes (or a string's UTF-8) to the input being received.
  #put(chunk) {
    const h = this.#handle();
    guard((m) => {
      if (typeof chunk === 'string') {
        const p = this.#space(h, chunk.length * 3);
        h.commitInput(encoder.encodeInto(chunk, m.HEAPU8.subarray(p, p + chunk.length * 3)).written);
        return;
      }
      const bytes = chunk instanceof ArrayBuffer ? new Uint8Array(chunk) : chunk;
      if (!ArrayBuffer.isView(bytes))
        throw new TypeError('webprof: a profile is bytes, a string or a file path');
      const u8 = new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
      // Room first: it may grow Wasm memory, which replaces m.HEAPU8.
      const p = this.#space(h, u8.length);
      m.HEAPU8.set(u8, p);
      h.commitInput(u8.length);
    });
  }

  #space(h, n) {
    const p = h.inputSpace(n);
    if (!p) throw new WebprofError('webprof: a profile larger than 1 GiB cannot be merged');
    return p;
  }

  // A file read in chunks straight into Wasm memory (gzip: inflated first).
  #putFile(path) {
    const h = this.#handle();
    const fd = openSync(path, 'r');
    try {
      // The first chunk tells gzip apart (no read of its own: a merge opens
      // thousands of files); a gzip file's first chunk is copied out, the
      // rest read after it, the whole inflated.
      for (let first = true; ; first = false) {
        let gz;
        const n = guard((m) => {
          const p = this.#space(h, CHUNK);
          const got = readSync(fd, m.HEAPU8, p, CHUNK, null);
          if (first && isGzip(m.HEAPU8.subarray(p, p + got))) gz = m.HEAPU8.slice(p, p + got);
          else h.commitInput(got);
          return got;
        });
        if (gz) return this.#put(gunzipSync(Buffer.concat([gz, readFileSync(fd)])));
        if (n === 0) return;
      }
    } finally {
      closeSync(fd);
    }
  }

  #finish(name) {
    const h = this.#handle();
    const r = guard((m) => {
      const heap = new Heap(m);
      try {
        const s = heap.strings([String(name)]);
        return h.addInput(s.blob, s.lens);
      } finally {
        heap.freeAll();
      }
    });
    if (r.status !== boundary().status.Ok) {
      if (!r.error) check(r.status, String(name));
      throw new WebprofError(`webprof: ${r.error}`, this.#m.statusName(r.status));
    }
    return {
      name: String(name),
      format: r.format,
      profiles: r.profiles,
      samples: r.samples,
      timeNs: r.timeNs,
    };
  }

  /**
   * Adds one profile: a file path (string or file: URL; read in chunks, gzip inflated) or its bytes
   * (Uint8Array, ArrayBuffer) or text. `name` (default: the path) starts every error. Returns
   * {name, format, profiles, samples, timeNs}. A malformed input throws a WebprofError naming it and
   * what is wrong, and changes nothing.
   */
  add(input, name = inputName(input)) {
    try {
      if (typeof input === 'string' && !/^\s*[[{]/.test(input)) this.#putFile(input);
      else if (input instanceof URL) this.#putFile(fileURLToPath(input));
      else if (ArrayBuffer.isView(input) && isGzip(input)) this.#put(gunzipSync(input));
      else if (input instanceof ArrayBuffer && isGzip(new Uint8Array(input))) this.#put(gunzipSync(input));
      else this.#put(input);
    } catch (e) {
      this.#drop();
      if (e && e.code && typeof e.code === 'string' && e.syscall)
        throw new WebprofError(
          `webprof: ${name}: ${e.code === 'ENOENT' ? 'no such file' : e.message}`,
          e.code,
        );
      throw e;
    }
    return this.#finish(name);
  }

  /**
   * Adds one profile arriving in chunks (a Node Readable, a web ReadableStream, any async iterable
   * of Uint8Array or string — e.g. a request body piped through zlib.createGunzip()).
   */
  async addStream(chunks, name = 'stream') {
    try {
      for await (const chunk of chunks) this.#put(chunk);
    } catch (e) {
      this.#drop();
      throw e;
    }
    return this.#finish(name);
  }

  // An input cut short is never merged: the next one starts empty.
  #drop() {
    if (this.#h) guard(() => this.#h.discardInput());
  }

  /** The map of `script` (URL or bare file name); a map that does not parse throws. */
  addSourceMap(script, map, mapUrl = '') {
    const h = this.#handle();
    if (map !== null && typeof map === 'object' && !ArrayBuffer.isView(map) && !(map instanceof ArrayBuffer))
      map = JSON.stringify(map);
    this.#put(map);
    const r = guard((m) => {
      const heap = new Heap(m);
      try {
        const s = heap.strings([String(script), String(mapUrl ?? '')]);
        return h.addSourceMap(s.blob, s.lens);
      } finally {
        heap.freeAll();
      }
    });
    if (r.status !== boundary().status.Ok)
      throw new WebprofError(`webprof: source map of ${script}: ${r.error}`, this.#m.statusName(r.status));
  }

  /** {inputs, profiles, samples, timeNs, stacks, frames, memoryBytes, wasmMemoryBytes} so far. */
  totals() {
    return this.#handle().totals();
  }

  /** The merged profile in export format `format` (a key of the core's registry: 'pprof', …). */
  write(format) {
    const h = this.#handle();
    const f = coreFormats().find((x) => x.key === format);
    if (!f)
      throw new TypeError(
        `webprof: unknown export format "${format}" (known: ${coreFormats()
          .map((x) => x.key)
          .join(', ')})`,
      );
    return guard((m) => {
      check(h.write(f.id), `merge: ${format}`);
      return copyChunks(m, h);
    });
  }

  /** Writes one file per format of the registry into `dir`; resolves to the paths. */
  async writeFiles(dir) {
    await mkdir(dir, { recursive: true });
    const written = [];
    for (const f of coreFormats()) {
      const path = join(dir, `${f.fileStem}.${f.extension}`);
      await writeFile(path, new Uint8Array(this.write(f.key)));
      written.push(path);
    }
    return written;
  }

  dispose() {
    if (this.#h) this.#h.delete();
    this.#h = null;
  }

  [Symbol.dispose]() {
    this.dispose();
  }
}

/**
 * Merges `inputs` (file paths, URLs or bytes, any mix of formats) into one profile: resolves to
 * {totals, inputs: [{name, format, profiles, samples, timeNs}], errors: [{name, message}], files}
 * where files maps each registry file name (profile.pb.gz, …) to its bytes; with `out`, also writes
 * them there. A malformed input throws, or with `skipInvalid` is listed in `errors` and skipped.
 */
export async function mergeProfiles(inputs, options = {}) {
  await ready;
  const merger = new ProfileMerger(options);
  try {
    const added = [];
    const errors = [];
    for (const [i, input] of inputs.entries()) {
      const name = inputName(input, i);
      try {
        added.push(merger.add(input, name));
      } catch (e) {
        if (!options.skipInvalid || !(e instanceof WebprofError)) throw e;
        errors.push({ name, message: e.message });
      }
    }
    const files = {};
    for (const f of coreFormats()) files[`${f.fileStem}.${f.extension}`] = merger.write(f.key);
    if (options.out) {
      await mkdir(options.out, { recursive: true });
      for (const [file, bytes] of Object.entries(files))
        await writeFile(join(options.out, file), new Uint8Array(bytes));
    }
    return { totals: merger.totals(), inputs: added, errors, files };
  } finally {
    merger.dispose();
  }
}
