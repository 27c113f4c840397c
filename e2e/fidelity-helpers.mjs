// Helpers for the fidelity e2e specs (not a spec: no tests here).
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { transformForSampling } from '../dist/transform-esbuild.mjs';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** Transforms e2e/pages/fidelity/<name> into build/e2e/fidelity/<name> (served). */
export async function buildTransformed(name, runtime = '/dist/webprof.mjs') {
  const src = readFileSync(join(root, 'e2e/pages/fidelity', name), 'utf8');
  const r = await transformForSampling(src, { runtime });
  if (r.status !== 'Ok') throw new Error(`transform of ${name}: ${r.status}`);
  const out = join(root, 'build/e2e/fidelity');
  mkdirSync(out, { recursive: true });
  writeFileSync(join(out, name), r.code);
  return r.sites;
}

/** Frames with their resource URL instead of an id. */
export function framesOf(trace) {
  return trace.frames.map((f) => ({
    name: f.name,
    resource: f.resourceId === undefined ? undefined : trace.resources[f.resourceId],
    line: f.line,
    column: f.column,
  }));
}

/**
 * Pairs each native frame with the polyfill frames that describe the same
 * function: same resource and the same name (when named) or the same line.
 * A pair matches when name, resource, line and column are all equal.
 */
export function compareFrames(nativeTrace, polyTrace) {
  const poly = framesOf(polyTrace).filter((f) => f.resource);
  const rows = [];
  for (const n of framesOf(nativeTrace)) {
    if (!n.resource || !n.resource.startsWith('http')) continue;
    const candidates = poly.filter(
      (p) => p.resource === n.resource && ((n.name !== '' && p.name === n.name) || p.line === n.line),
    );
    if (candidates.length === 0) continue; // not reported by both
    const exact = candidates.some((p) => p.name === n.name && p.line === n.line && p.column === n.column);
    rows.push({ native: n, polyfill: candidates, match: exact });
  }
  const matched = rows.filter((r) => r.match).length;
  return { rows, matched, total: rows.length, rate: rows.length ? matched / rows.length : 0 };
}

/** Self-time shares (leaf frame name -> fraction of samples among `names`). */
export function selfShares(trace, names) {
  const counts = Object.fromEntries(names.map((n) => [n, 0]));
  let total = 0;
  for (const s of trace.samples) {
    if (s.stackId === undefined) continue;
    const leaf = trace.frames[trace.stacks[s.stackId].frameId].name;
    if (leaf in counts) {
      counts[leaf]++;
      total++;
    }
  }
  return Object.fromEntries(names.map((n) => [n, total ? counts[n] / total : 0]));
}

/** Throws unless every id is in range, parents precede children, time is ordered. */
export function checkIntegrity(trace) {
  trace.frames.forEach((f, i) => {
    if (typeof f.name !== 'string') throw new Error(`frame ${i} has no name`);
    if (f.resourceId !== undefined && !(f.resourceId < trace.resources.length))
      throw new Error(`frame ${i} resource out of range`);
  });
  trace.stacks.forEach((s, i) => {
    if (!(s.frameId < trace.frames.length)) throw new Error(`stack ${i} frame out of range`);
    if (s.parentId !== undefined && !(s.parentId < i)) throw new Error(`stack ${i} parent not earlier`);
  });
  let last = -Infinity;
  trace.samples.forEach((s, i) => {
    if (!(s.timestamp >= last)) throw new Error(`sample ${i} out of order`);
    last = s.timestamp;
    if (s.stackId !== undefined && !(s.stackId < trace.stacks.length))
      throw new Error(`sample ${i} stack out of range`);
  });
}

/** The worker scenarios' expectations, shared by Chromium and Firefox runs. */
export function checkWorkerTrace(kind, data) {
  checkIntegrity(data.trace);
  if (data.backend !== 'polyfill') throw new Error(`backend ${data.backend}`);
  const frames = framesOf(data.trace);
  const want = kind === 'module' ? ['partA', 'partB', 'partC', 'runSplit'] : ['classicWork'];
  for (const name of want) {
    const f = frames.find((x) => x.name === name);
    if (!f) throw new Error(`${kind} worker: no frame ${name} in ${JSON.stringify(frames)}`);
    if (!f.resource || !f.line || !f.column) throw new Error(`${kind} worker: ${name} has no position`);
  }
  return frames;
}
