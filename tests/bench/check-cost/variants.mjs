// Variants of one transformed bundle that isolate what the inserted checks
// cost (tests/bench/check_cost_bench.mjs): every check of the default
// transform's output is found in its syntax tree and classed by where it
// sits — a function's entry, a loop body, a function's exit (the check before
// a body's `}`, and the check as an expression in a `return`) — then each
// class is kept, dropped or replaced by another statement (an exit inside a
// `return` by the same check as an expression, or `0`). Only for measuring:
// the output need not keep lines.
import { parse } from 'acorn';
import { LOOPS } from '../../support/transform-check.mjs';

const FUNCTIONS = new Set(['FunctionDeclaration', 'FunctionExpression', 'ArrowFunctionExpression']);

// A node's child nodes, in source order.
function* children(node) {
  for (const key of Object.keys(node)) {
    const v = node[key];
    if (Array.isArray(v)) {
      for (const c of v) if (c && typeof c.type === 'string') yield c;
    } else if (v && typeof v.type === 'string' && key !== 'loc') yield v;
  }
}

// `code` with each [start, end, text] edit made (edits do not overlap).
function applyEdits(code, edits) {
  let out = '';
  let from = 0;
  for (const [a, b, text] of [...edits].sort((x, y) => x[0] - y[0])) {
    out += code.slice(from, a) + text;
    from = b;
  }
  return out + code.slice(from);
}

// The check's condition, guarded (`__wp$on&&__wp$f&&--__wp$f[0]<__wp$f[1]`,
// without `__wp$f&&` before the module-level binding, `<0` before the
// threshold slot) or not.
function isCondition(t) {
  if (t.type === 'LogicalExpression' && t.operator === '&&' && t.left.name === '__wp$on') t = t.right;
  const bound = (l) =>
    l.type === 'LogicalExpression' && l.left.name === '__wp$on' && l.right.name === '__wp$f';
  if (t.type === 'LogicalExpression' && t.operator === '&&' && bound(t.left)) t = t.right;
  return (
    t.type === 'BinaryExpression' &&
    t.operator === '<' &&
    t.left.type === 'UpdateExpression' &&
    t.left.operator === '--' &&
    t.left.argument.type === 'MemberExpression' &&
    t.left.argument.object.name === '__wp$f'
  );
}
// The check, `if(cond)__wp$s();`.
const isCheck = (node) => node.type === 'IfStatement' && !node.alternate && isCondition(node.test);
// The exit check as an expression in a `return`: `cond&&delete __wp$p.s`
// (`cond&&__wp$s()` before the `delete` slow path).
const isSlowPath = (n) =>
  (n.type === 'CallExpression' && n.callee.name === '__wp$s') ||
  (n.type === 'UnaryExpression' &&
    n.operator === 'delete' &&
    n.argument.object &&
    n.argument.object.name === '__wp$p');
const isExitExpression = (node) =>
  node.type === 'LogicalExpression' &&
  node.operator === '&&' &&
  isSlowPath(node.right) &&
  isCondition(node.left);

/** The checks ({start, end, kind, expression}) of `code`. */
export function findChecks(code) {
  const ast = parse(code, { ecmaVersion: 'latest', sourceType: 'module' });
  const checks = [];
  const walk = (node, parent, grand) => {
    if (isExitExpression(node)) {
      checks.push({ start: node.start, end: node.end, kind: 'exit', expression: true });
      return;
    }
    if (isCheck(node)) {
      let kind = 'loop';
      if (parent.type === 'BlockStatement' && grand && FUNCTIONS.has(grand.type)) {
        // The entry check is the body's first statement after directives; a
        // later one ends the body (after a `;`, or before `return __wp$t`).
        const i = parent.body.indexOf(node);
        const first = parent.body.findIndex((n) => !n.directive);
        kind = i === first ? 'entry' : 'exit';
      } else if (!(parent.type === 'BlockStatement' && grand && LOOPS.has(grand.type)))
        throw new Error(`a check at ${node.start} under ${grand && grand.type}`);
      const body = kind === 'entry' ? parent.end : 0;
      checks.push({ start: node.start, end: node.end, kind, expression: false, body });
      return;
    }
    for (const c of children(node)) walk(c, node, parent);
  };
  walk(ast, null, null);
  // A leaf: an entry check with no other check in its body (nested
  // functions' included), what the transform emits no entry check for.
  checks.sort((a, b) => a.start - b.start);
  checks.forEach((c, i) => {
    c.leaf = c.kind === 'entry' && !(i + 1 < checks.length && checks[i + 1].start < c.body);
  });
  return { checks };
}

/**
 * `code` with each check replaced by `spec[kind]` (a statement's text, '' to
 * drop it, undefined to keep it; a leaf's entry check by `spec.leaf` when
 * given); an exit check inside a `return` becomes that statement as an
 * expression (`if(c)s();` → `(c&&s())`, '' → `0`).
 */
export function variant(code, found, spec) {
  const edits = [];
  for (const c of found.checks) {
    const text = c.leaf && 'leaf' in spec ? spec.leaf : spec[c.kind];
    if (text === undefined) continue;
    edits.push([c.start, c.end, c.expression ? asExpression(text) : text]);
  }
  return applyEdits(code, edits);
}

function asExpression(statement) {
  if (statement === '') return '0';
  // `if(condition)slow;`, the slow path one of the forms below.
  const m = /^if\((.*)\)(delete __wp\$p\.s|__wp\$[sc]\(\)|__webprof\$x\(\)|\(__wp\$c=__wp\$r\(\)\));$/.exec(
    statement,
  );
  if (!m) throw new Error(`not a check statement: ${statement}`);
  return `(${m[1]}&&${m[2]})`;
}

// Nodes that run other code (a call, a constructor, a tagged template, a
// suspension); a nested function's body does not run at the return.
const RUNS_CODE = new Set([
  'CallExpression',
  'NewExpression',
  'TaggedTemplateExpression',
  'AwaitExpression',
  'YieldExpression',
  'ImportExpression',
]);
function runsCode(node) {
  if (!node || typeof node.type !== 'string') return false;
  if (RUNS_CODE.has(node.type)) return true;
  if (FUNCTIONS.has(node.type) || node.type === 'ClassExpression') return false;
  for (const c of children(node)) if (runsCode(c)) return true;
  return false;
}

/**
 * `code` with every exit check in a `return` whose argument runs no other
 * code (`return r`, `return x+1`, `return true`) moved before the argument
 * and its temporary dropped: `(__wp$t=(0,e),check,__wp$t)` → `(check,e)`.
 * Evaluating such an argument takes no time worth a sample, so the check
 * sees the same due samples either way; only the shape changes. Returns
 * {code, pure, kept}: the rewritten text and how many returns were and
 * were not rewritten.
 */
export function pureReturns(code) {
  const ast = parse(code, { ecmaVersion: 'latest', sourceType: 'module' });
  const edits = [];
  let pure = 0;
  let kept = 0;
  const isTemp = (n) => n && n.type === 'Identifier' && n.name === '__wp$t';
  const walk = (node) => {
    if (
      node.type === 'SequenceExpression' &&
      node.expressions.length === 3 &&
      isTemp(node.expressions[2]) &&
      isExitExpression(node.expressions[1]) &&
      node.expressions[0].type === 'AssignmentExpression' &&
      isTemp(node.expressions[0].left) &&
      node.expressions[0].right.type === 'SequenceExpression'
    ) {
      // `(0,e)`, where e may be a sequence itself: `(0,a,b)`.
      const parts = node.expressions[0].right.expressions.slice(1);
      const arg = { start: parts[0].start, end: parts[parts.length - 1].end };
      if (parts.some(runsCode)) kept++;
      else {
        // Two edits around the argument, so a rewritten return nested in
        // it (a function's) does not overlap this one.
        const check = node.expressions[1];
        edits.push([node.start, arg.start, `${code.slice(check.start, check.end)},`]);
        edits.push([arg.end, node.end, '']);
        pure++;
      }
    }
    for (const c of children(node)) walk(c);
  };
  walk(ast);
  return { code: applyEdits(code, edits), pure, kept };
}
