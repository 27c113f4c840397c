// The sampling transform's correctness property, shared by the unit fixtures
// (tests/js/transform.test.mjs), the sampled corpus test and the full-corpus
// run (tests/bench/transform_corpus_bench.mjs): for every input a real
// parser (acorn) accepts, the output parses under the same goal (script or
// module) and, once the inserted checks are removed (statements, and the
// exit checks in `return`s with their temp `__wp$t`, which every function
// using it declares), arrows' expression bodies restored and loop bodies
// unwrapped to their single statement, has the same syntax tree.
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

// `__wp$on&&__wp$f` (the guard, then the slots' binding), as acorn reads it.
const isGuard = (t) =>
  t.type === 'LogicalExpression' &&
  t.operator === '&&' &&
  t.left.type === 'Identifier' &&
  t.left.name === '__wp$on' &&
  t.right.type === 'Identifier' &&
  t.right.name === '__wp$f';
// The check's condition, `__wp$on&&__wp$f&&--__wp$f[0]<__wp$f[1]`, or the
// light check's (at the exits of a body that runs no other code),
// `__wp$on&&__wp$f&&__wp$f[1]>0`, as acorn reads them.
function isCondition(t) {
  if (t.type !== 'LogicalExpression' || t.operator !== '&&' || !isGuard(t.left)) return false;
  const c = t.right;
  if (c.type !== 'BinaryExpression') return false;
  if (c.operator === '>')
    return (
      c.left.type === 'MemberExpression' &&
      c.left.object.name === '__wp$f' &&
      c.right.type === 'Literal' &&
      c.right.value === 0
    );
  return (
    c.operator === '<' &&
    c.left.type === 'UpdateExpression' &&
    c.left.operator === '--' &&
    c.left.argument.type === 'MemberExpression' &&
    c.left.argument.object.name === '__wp$f' &&
    c.right.type === 'MemberExpression' &&
    c.right.object.name === '__wp$f'
  );
}
// The slow path, `delete __wp$p.s`.
const isSampleCall = (n) =>
  n.type === 'UnaryExpression' &&
  n.operator === 'delete' &&
  n.argument.type === 'MemberExpression' &&
  n.argument.object.name === '__wp$p' &&
  !n.argument.computed &&
  n.argument.property.name === 's';
// `if(__wp$on&&__wp$f&&--__wp$f[0]<__wp$f[1])delete __wp$p.s;`
function isCheck(n) {
  return (
    !!n &&
    n.type === 'IfStatement' &&
    !n.alternate &&
    isCondition(n.test) &&
    n.consequent.type === 'ExpressionStatement' &&
    isSampleCall(n.consequent.expression)
  );
}
// The exit check as an expression: `__wp$on&&__wp$f&&--__wp$f[0]<__wp$f[1]&&delete __wp$p.s`.
function isExitExpression(n) {
  return (
    n.type === 'LogicalExpression' && n.operator === '&&' && isCondition(n.left) && isSampleCall(n.right)
  );
}
const isTemp = (n) => !!n && n.type === 'Identifier' && n.name === '__wp$t';
// `var __wp$t;` / `var __wp$t = e;`
function isTempDeclaration(n) {
  return (
    !!n &&
    n.type === 'VariableDeclaration' &&
    n.kind === 'var' &&
    n.declarations.length === 1 &&
    isTemp(n.declarations[0].id)
  );
}
// What the transform wrote as `(0,e)` (so an anonymous function in `e` is not
// named by the temp) → e: acorn reads `(0,a,b)` as one flat sequence.
function unzero(n) {
  if (
    !n ||
    n.type !== 'SequenceExpression' ||
    n.expressions[0].type !== 'Literal' ||
    n.expressions[0].raw !== '0'
  )
    return n;
  const rest = n.expressions.slice(1);
  return rest.length === 1 ? rest[0] : { type: 'SequenceExpression', expressions: rest };
}
// The argument of a `return` as the transform wrote it: `(__wp$t=(0,e),exit,__wp$t)` → e,
// `void(exit)` → null; anything else as it is.
function returnArgument(arg) {
  if (!arg) return arg;
  if (arg.type === 'UnaryExpression' && arg.operator === 'void' && isExitExpression(arg.argument))
    return null;
  if (
    arg.type === 'SequenceExpression' &&
    arg.expressions.length === 3 &&
    arg.expressions[0].type === 'AssignmentExpression' &&
    arg.expressions[0].operator === '=' &&
    isTemp(arg.expressions[0].left) &&
    isExitExpression(arg.expressions[1]) &&
    isTemp(arg.expressions[2])
  )
    return unzero(arg.expressions[0].right);
  return arg;
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
    if (value && value.type === 'ReturnStatement') {
      const argument = returnArgument(value.argument);
      if (argument !== value.argument) return { ...value, argument };
    }
    // `x => {check var __wp$t=(0,e);check return __wp$t}` was `x => e`; both
    // sides read an arrow whose body is only `return e` as `x => e`.
    if (value && value.type === 'ArrowFunctionExpression' && !value.expression) {
      const b = value.body.body.filter(
        (n) => !isCheck(n) && !(isTempDeclaration(n) && !n.declarations[0].init),
      );
      if (
        b.length === 2 &&
        isTempDeclaration(b[0]) &&
        b[0].declarations[0].init &&
        b[1].type === 'ReturnStatement' &&
        isTemp(b[1].argument)
      )
        return { ...value, expression: true, body: unzero(b[0].declarations[0].init) };
      const argument = b.length === 1 && b[0].type === 'ReturnStatement' && returnArgument(b[0].argument);
      if (argument) return { ...value, expression: true, body: argument };
    }
    if (Array.isArray(value) && value.some((n) => isCheck(n) || isTempDeclaration(n))) {
      // A check before a body's `}` comes with a `;` (an empty statement
      // when the statement before it had its own).
      const checkAt = new Set(value.filter(isCheck).map((n) => n.start));
      return value.filter(
        (n) =>
          !isCheck(n) &&
          !(isTempDeclaration(n) && !n.declarations[0].init) &&
          !(n && n.type === 'EmptyStatement' && checkAt.has(n.end)),
      );
    }
    if (value && LOOPS.has(value.type) && value.body.type === 'BlockStatement') {
      const body = value.body.body.filter((n) => !isCheck(n));
      if (body.length === 1) return { ...value, body: body[0] };
    }
    return value;
  });
}

const FUNCTIONS = new Set(['FunctionDeclaration', 'FunctionExpression', 'ArrowFunctionExpression']);
/**
 * The `return`s that use the temp `__wp$t` in a function whose body does
 * not declare it (a sloppy function would create a global, a strict one
 * throw): [] when every one is declared.
 */
export function undeclaredTemps(ast) {
  const out = [];
  const walk = (node, declared) => {
    if (!node || typeof node.type !== 'string') return;
    if (FUNCTIONS.has(node.type)) {
      const body = node.body.type === 'BlockStatement' ? node.body.body : [];
      declared = body.some(isTempDeclaration);
    }
    if (node.type === 'ReturnStatement' && node.argument && returnArgument(node.argument) !== node.argument) {
      if (node.argument.type === 'SequenceExpression' && !declared) out.push(node.start);
    }
    for (const key of Object.keys(node)) {
      const v = node[key];
      if (Array.isArray(v)) for (const c of v) walk(c, declared);
      else if (v && typeof v.type === 'string') walk(v, declared);
    }
  };
  walk(ast, false);
  return out;
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
  const undeclared = undeclaredTemps(out);
  if (undeclared.length)
    return {
      parses: true,
      goal: input.goal,
      ok: false,
      why: `a return uses __wp$t undeclared at ${undeclared[0]}`,
      parseMs,
      ...r,
    };
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
