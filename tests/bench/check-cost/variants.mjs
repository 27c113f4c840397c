// Variants of one transformed bundle that isolate what the inserted checks
// cost (tests/bench/check_cost_bench.mjs): every check of the default
// transform's output is found in its syntax tree and classed by where it
// sits — a function's entry, a loop body, a function's exit (the `finally`
// of the `try` the transform wraps a body in) — then each class is kept,
// dropped or replaced by another statement, and the `try{…}finally{…}`
// wrappers kept, emptied or dropped. Only for measuring: the output need not
// keep lines.
import { parse } from 'acorn';
import { LOOPS } from '../../support/transform-check.mjs';

const FUNCTIONS = new Set(['FunctionDeclaration', 'FunctionExpression', 'ArrowFunctionExpression']);

// The check, guarded (`if(__wp$on&&--__wp$f[0]<__wp$f[1])__wp$s();`, or
// `<0` before the threshold slot) or not.
function isCheck(node) {
  if (node.type !== 'IfStatement' || node.alternate) return false;
  let t = node.test;
  if (t.type === 'LogicalExpression' && t.operator === '&&' && t.left.name === '__wp$on') t = t.right;
  return (
    t.type === 'BinaryExpression' &&
    t.operator === '<' &&
    t.left.type === 'UpdateExpression' &&
    t.left.operator === '--' &&
    t.left.argument.type === 'MemberExpression' &&
    t.left.argument.object.name === '__wp$f'
  );
}

/** The checks ({start, end, kind}) and the inserted `try`s ({start, block, end}) of `code`. */
export function findChecks(code) {
  const ast = parse(code, { ecmaVersion: 'latest', sourceType: 'module' });
  const checks = [];
  const tries = [];
  const walk = (node, parent, grand) => {
    if (isCheck(node)) {
      let kind = 'loop';
      if (
        parent.type === 'BlockStatement' &&
        grand &&
        grand.type === 'TryStatement' &&
        grand.finalizer === parent
      )
        kind = 'exit';
      else if (parent.type === 'BlockStatement' && grand && FUNCTIONS.has(grand.type)) kind = 'entry';
      else if (!(parent.type === 'BlockStatement' && grand && LOOPS.has(grand.type)))
        throw new Error(`a check at ${node.start} under ${grand && grand.type}`);
      checks.push({ start: node.start, end: node.end, kind });
      return;
    }
    if (
      node.type === 'TryStatement' &&
      !node.handler &&
      node.finalizer &&
      node.finalizer.body.length === 1 &&
      isCheck(node.finalizer.body[0])
    )
      tries.push({
        start: node.start,
        blockStart: node.block.start,
        blockEnd: node.block.end,
        end: node.end,
      });
    for (const key of Object.keys(node)) {
      const v = node[key];
      if (Array.isArray(v)) {
        for (const c of v) if (c && typeof c.type === 'string') walk(c, node, parent);
      } else if (v && typeof v.type === 'string' && key !== 'loc') walk(v, node, parent);
    }
  };
  walk(ast, null, null);
  return { checks, tries };
}

/**
 * `code` with each check replaced by `spec[kind]` (a statement's text, '' to
 * drop it, undefined to keep it) and each inserted `try` kept
 * (spec.tryMode 'keep'), its finally emptied ('empty') or unwrapped ('drop').
 */
export function variant(code, found, spec) {
  const edits = [];
  const tryMode = spec.tryMode || 'keep';
  const inFinally = new Set();
  for (const t of found.tries) {
    if (tryMode === 'keep') continue;
    // `try{` … `}finally{check}` → `{` … `}` (drop) or `try{` … `}finally{}` (empty)
    if (tryMode === 'drop') {
      edits.push([t.start, t.blockStart, '']);
      edits.push([t.blockEnd, t.end, '']);
    } else edits.push([t.blockEnd, t.end, 'finally{}']);
    inFinally.add(t.blockEnd);
  }
  const removedRanges = edits.filter((e) => e[1] - e[0] > 1);
  for (const c of found.checks) {
    if (removedRanges.some(([a, b]) => a <= c.start && c.end <= b)) continue;
    const text = spec[c.kind];
    if (text === undefined) continue;
    edits.push([c.start, c.end, text]);
  }
  edits.sort((a, b) => a[0] - b[0]);
  let out = '';
  let from = 0;
  for (const [a, b, text] of edits) {
    out += code.slice(from, a) + text;
    from = b;
  }
  return out + code.slice(from);
}
