// The one rule for showing a probe's `info` value (a mark's, a trace
// event's, a reporter's): JSON text, made here for every output — the
// exporters (js/export/export.mjs) and the console reporter alike.
//
// info is whatever the page passed, so the rule never throws: JSON as
// JSON.stringify writes it (toJSON honoured, functions and symbols left
// out, non-finite numbers as null), plus what JSON.stringify refuses or
// cannot do — a BigInt becomes the string "<digits>n", a value that
// contains itself "[Circular]", nesting past MAX_DEPTH "[too deep]", and a
// value whose reading throws (a throwing getter or toJSON, a revoked Proxy)
// "[unprintable: <message>]". Objects without a prototype
// (Object.create(null)) are plain objects here.
const MAX_DEPTH = 64;

/** The JSON text of `info`; '' for undefined (or a value JSON leaves out). */
export function infoJson(info) {
  if (info === undefined) return '';
  try {
    const text = toJson(info, '', [], 0);
    return text === undefined ? '' : text;
  } catch (e) {
    return JSON.stringify(`[unprintable: ${messageOf(e)}]`);
  }
}

function messageOf(e) {
  try {
    return String(e && typeof e === 'object' && 'message' in e ? e.message : e).slice(0, 200);
  } catch {
    return 'unknown error';
  }
}

function toJson(v, key, stack, depth) {
  if ((typeof v === 'object' && v !== null) || typeof v === 'bigint') {
    const toJSON = v.toJSON;
    if (typeof toJSON === 'function') v = toJSON.call(v, key);
  }
  switch (typeof v) {
    case 'string':
      return JSON.stringify(v);
    case 'number':
      return Number.isFinite(v) ? String(v) : 'null';
    case 'boolean':
      return v ? 'true' : 'false';
    case 'bigint':
      return JSON.stringify(`${v}n`);
    case 'undefined':
    case 'function':
    case 'symbol':
      return undefined;
  }
  if (v === null) return 'null';
  // Boxed primitives read as their value (as JSON.stringify does).
  if (v instanceof Number || v instanceof String || v instanceof Boolean)
    return toJson(v.valueOf(), key, stack, depth);
  if (stack.includes(v)) return '"[Circular]"';
  if (depth >= MAX_DEPTH) return '"[too deep]"';
  stack.push(v);
  try {
    if (Array.isArray(v)) {
      const parts = [];
      for (let i = 0; i < v.length; i++) parts.push(toJson(v[i], String(i), stack, depth + 1) ?? 'null');
      return `[${parts.join(',')}]`;
    }
    const parts = [];
    for (const k of Object.keys(v)) {
      const s = toJson(v[k], k, stack, depth + 1);
      if (s !== undefined) parts.push(`${JSON.stringify(k)}:${s}`);
    }
    return `{${parts.join(',')}}`;
  } finally {
    stack.pop();
  }
}
