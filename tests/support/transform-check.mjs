// The sampling transform's correctness property, shared by the unit fixtures
// (tests/js/transform.test.mjs), the sampled corpus test and the full-corpus
// run (tests/bench/transform_corpus_bench.mjs): for every input a real
// parser (acorn) accepts, the output parses under the same goal (script or
// module) and, once the inserted checks are removed, exit-check
// `try{…}finally{check}` wrappers opened, arrows' expression bodies restored
// and loop bodies unwrapped to their single statement, has the same syntax
// tree.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import * as acorn from 'acorn';

const BASE = { ecmaVersion: 'latest', allowHashBang: true };
// CommonJS files may `return` at top level (Node's wrapper allows it).
const GOALS = {
  script: { ...BASE, sourceType: 'script', allowReturnOutsideFunction: true },
  module: { ...BASE, sourceType: 'module' },
};

/** The goal the source parses under ('script' first for .js/.cjs), or null. */
export function parseGoal(code, file = '') {
  file = file.replace(/ \(.*\)$/, '');
  const order = /\.m[jt]s$/.test(file)
    ? ['module']
    : /\.c[jt]s$/.test(file)
      ? ['script']
      : ['script', 'module'];
  for (const goal of order) {
    try {
      return { goal, ast: acorn.parse(code, GOALS[goal]) };
    } catch {
      // not this goal
    }
  }
  return null;
}

export function parse(code, goal) {
  return acorn.parse(code, GOALS[goal]);
}

// `if(__wp$on&&--__wp$f[0]<__wp$f[1])__wp$s();` as acorn reads it.
function isCheck(n) {
  if (!n || n.type !== 'IfStatement' || n.alternate) return false;
  const t = n.test;
  return (
    t.type === 'LogicalExpression' &&
    t.operator === '&&' &&
    t.left.type === 'Identifier' &&
    t.left.name === '__wp$on' &&
    t.right.type === 'BinaryExpression' &&
    t.right.operator === '<' &&
    t.right.left.type === 'UpdateExpression' &&
    t.right.left.operator === '--' &&
    t.right.left.argument.type === 'MemberExpression' &&
    t.right.left.argument.object.name === '__wp$f' &&
    t.right.right.type === 'MemberExpression' &&
    t.right.right.object.name === '__wp$f' &&
    n.consequent.type === 'ExpressionStatement' &&
    n.consequent.expression.type === 'CallExpression' &&
    n.consequent.expression.callee.name === '__wp$s'
  );
}
// The exit check around a function body: `try{…}finally{check}`.
function isExitTry(n) {
  return (
    n &&
    n.type === 'TryStatement' &&
    n.handler === null &&
    n.finalizer !== null &&
    n.finalizer.body.length === 1 &&
    isCheck(n.finalizer.body[0])
  );
}
/** The loop statements a check may sit in (also tests/bench/check-cost/variants.mjs). */
export const LOOPS = new Set([
  'ForStatement',
  'ForInStatement',
  'ForOfStatement',
  'WhileStatement',
  'DoWhileStatement',
]);

/** A position-free serialization without checks, loop bodies unwrapped. */
export function normalize(ast) {
  return JSON.stringify(ast, (key, value) => {
    if (key === 'start' || key === 'end') return undefined;
    if (typeof value === 'bigint') return `${value}n`;
    // `x => {check try{return(e)}finally{check}}` was `x => e`; both sides
    // read an arrow whose body is only `return e` as `x => e` (the same).
    if (value && value.type === 'ArrowFunctionExpression' && !value.expression) {
      const b = value.body.body
        .flatMap((n) => (isExitTry(n) ? n.block.body : [n]))
        .filter((n) => !isCheck(n));
      if (b.length === 1 && b[0].type === 'ReturnStatement' && b[0].argument)
        return { ...value, expression: true, body: b[0].argument };
    }
    if (Array.isArray(value) && value.some(isExitTry))
      value = value.flatMap((n) => (isExitTry(n) ? n.block.body : [n]));
    if (Array.isArray(value) && value.some(isCheck)) return value.filter((n) => !isCheck(n));
    if (value && LOOPS.has(value.type) && value.body.type === 'BlockStatement') {
      const body = value.body.body.filter((n) => !isCheck(n));
      if (body.length === 1) return { ...value, body: body[0] };
    }
    return value;
  });
}

/**
 * Checks one source. Returns {parses: false} when acorn rejects the input,
 * else {parses: true, goal, ok, why?, sites, status}.
 */
export async function checkSource(transform, code, file = '') {
  const t0 = performance.now();
  const input = parseGoal(code, file);
  const parseMs = performance.now() - t0;
  if (!input) return { parses: false };
  const r = await transform(code, { runtime: null, file });
  let out;
  try {
    out = parse(r.code, input.goal);
  } catch (e) {
    return {
      parses: true,
      goal: input.goal,
      ok: false,
      why: `output does not parse: ${e.message}`,
      parseMs,
      ...r,
    };
  }
  if (normalize(out) !== normalize(input.ast))
    return {
      parses: true,
      goal: input.goal,
      ok: false,
      why: 'output parses to a different program',
      parseMs,
      ...r,
    };
  if (r.code.split('\n').length !== code.split('\n').length)
    return { parses: true, goal: input.goal, ok: false, why: 'line count changed', parseMs, ...r };
  return { parses: true, goal: input.goal, ok: true, parseMs, ...r };
}

/** Every .js/.mjs/.cjs file under `dir`, sorted (a deterministic order). */
export function listSources(dir) {
  const out = [];
  const walk = (d) => {
    let entries;
    try {
      entries = readdirSync(d, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      const p = join(d, e.name);
      if (e.isDirectory() || (e.isSymbolicLink() && statSync(p, { throwIfNoEntry: false })?.isDirectory())) {
        if (e.name !== '.cache') walk(p);
      } else if (/\.(m|c)?js$/.test(e.name)) {
        out.push(p);
      }
    }
  };
  walk(dir);
  return out.sort();
}

/**
 * Runs the property over `files` (every `every`-th one), and over each
 * variant's rewrite of them (`variants`: name -> async (code, file) => code
 * or null), e.g. minified or semicolon-free reformatted. Returns counts,
 * failures (file + why) and the bytes/time spent in the transform alone.
 */
export async function checkCorpus(transform, files, every = 1, variants = {}) {
  const stats = {
    tried: 0,
    parse: 0,
    failures: [],
    bytes: 0,
    transformMs: 0,
    parseMs: 0,
    sites: 0,
    unscannable: [],
  };
  const timed = async (code, opts) => {
    const t0 = performance.now();
    const r = await transform(code, opts);
    stats.transformMs += performance.now() - t0;
    stats.bytes += Buffer.byteLength(code);
    return r;
  };
  const one = async (file, code) => {
    stats.tried++;
    const r = await checkSource(timed, code, file);
    if (!r.parses) return;
    stats.parse++;
    stats.parseMs += r.parseMs;
    stats.sites += r.sites;
    if (r.status !== 'Ok') stats.unscannable.push({ file, status: r.status });
    if (!r.ok) stats.failures.push({ file, why: r.why });
  };
  for (let i = 0; i < files.length; i += every) {
    const code = readFileSync(files[i], 'utf8');
    await one(files[i], code);
    for (const [name, rewrite] of Object.entries(variants)) {
      let v = null;
      try {
        v = await rewrite(code, files[i]);
      } catch {
        // the rewriter does not take this file
      }
      if (v !== null && v !== code) await one(`${files[i]} (${name})`, v);
    }
  }
  return stats;
}
