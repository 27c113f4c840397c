// Bulk input to the core: tables written into Wasm memory as a few buffers
// (all strings of a table as one UTF-8 blob plus a Uint32Array of byte
// lengths; numbers as one Float64Array/Uint32Array), so cost does not scale
// with boundary crossings. Bulk output the other way: an export's chunks
// copied out at once.
import { WebprofError } from './core.mjs';

const encoder = new TextEncoder();

// Scratch allocations in Wasm memory for one sequence of bulk calls (a trace
// load, an export), freed together. Views are taken after each malloc
// (memory growth detaches older ones).
export class Heap {
  constructor(m) {
    this.m = m;
    this.ptrs = [];
  }
  alloc(bytes) {
    const p = this.m._malloc(Math.max(8, bytes));
    if (!p) throw new WebprofError('webprof: out of memory while exporting');
    this.ptrs.push(p);
    return p;
  }
  /** A copy of `values` as `View` elements (Float64Array, Uint32Array, Uint8Array). */
  typed(View, values) {
    const p = this.alloc(values.length * View.BYTES_PER_ELEMENT);
    new View(this.m.HEAPU8.buffer, p, values.length).set(values);
    return p;
  }
  f64(values) {
    return this.typed(Float64Array, values);
  }
  u32(values) {
    return this.typed(Uint32Array, values);
  }
  u8(values) {
    return this.typed(Uint8Array, values);
  }
  /** All strings as one UTF-8 blob + their byte lengths. */
  strings(list) {
    let max = 0;
    for (const s of list) max += s.length * 3;
    const blob = this.alloc(max);
    const lens = new Uint32Array(list.length);
    let at = blob;
    for (let i = 0; i < list.length; i++) {
      const heap = this.m.HEAPU8;
      const s = list[i];
      const { written } = encoder.encodeInto(s, heap.subarray(at, at + s.length * 3));
      lens[i] = written;
      at += written;
    }
    return { blob, lens: this.u32(lens) };
  }
  freeAll() {
    for (const p of this.ptrs) this.m._free(p);
    this.ptrs = [];
  }
}

/**
 * The bytes a binding wrote into its ByteSink (`sink`: an ExportBuilder or a
 * ProfileMerge, wasm/bind_embind.h), copied chunk by chunk into one
 * ArrayBuffer — a copy, as memory growth detaches views — then cleared there.
 */
export function copyChunks(m, sink) {
  const out = new Uint8Array(sink.size());
  let at = 0;
  for (let i = 0, n = sink.chunkCount(); i < n; i++) {
    const ptr = sink.chunkPtr(i);
    const len = sink.chunkLength(i);
    out.set(m.HEAPU8.subarray(ptr, ptr + len), at);
    at += len;
  }
  sink.clearOutput();
  return out.buffer;
}
