// Comparing two W3C traces of the same code (tests/bench/accuracy_bench.mjs):
// self and inclusive shares per frame, errors against a reference, spacing.

/**
 * A frame's identity across traces: name, resource URL, line, column; with
 * `names` false, its position alone (V8's DevTools profiles name a function
 * by where it is stored, `pp.readWord`, where the Profiler API gives its
 * own name, empty for `pp.readWord = function () {}`).
 */
function keyOf(trace, frameId, names = true) {
  const f = trace.frames[frameId];
  // The page's query differs between pages (?coi): not part of the identity.
  const res = f.resourceId === undefined ? '' : trace.resources[f.resourceId].replace(/[?#].*$/, '');
  return `${names ? f.name : ''}\u0000${res}\u0000${f.line}\u0000${f.column}`;
}

/**
 * Self and inclusive share (percent of samples with a stack) per frame key.
 * weighted: each sample counts the time since the previous one (a late
 * sample stands for the interval it was late by), not 1.
 */
export function shares(trace, { weighted = false, names = true } = {}) {
  const self = new Map();
  const incl = new Map();
  let n = 0;
  let prev = null;
  for (const s of trace.samples) {
    const w = weighted ? (prev === null ? 0 : s.timestamp - prev) : 1;
    prev = s.timestamp;
    if (s.stackId === undefined) continue;
    n += w;
    const seen = new Set();
    let leaf = true;
    for (let id = s.stackId; id !== undefined; id = trace.stacks[id].parentId) {
      const k = keyOf(trace, trace.stacks[id].frameId, names);
      if (leaf) self.set(k, (self.get(k) || 0) + w);
      leaf = false;
      seen.add(k);
    }
    for (const k of seen) incl.set(k, (incl.get(k) || 0) + w);
  }
  const pct = (m) => new Map([...m].map(([k, v]) => [k, (100 * v) / Math.max(n, 1)]));
  const frames = new Set(trace.frames.map((_, i) => keyOf(trace, i, names)));
  return { self: pct(self), inclusive: pct(incl), frames, samples: n };
}

const top = (m, k) =>
  [...m]
    .sort((a, b) => b[1] - a[1])
    .slice(0, k)
    .map(([key]) => key);

function errors(ref, other, keys) {
  let max = 0;
  let sum = 0;
  for (const k of keys) {
    const e = Math.abs((ref.get(k) || 0) - (other.get(k) || 0));
    max = Math.max(max, e);
    sum += e;
  }
  return { max, mean: keys.length ? sum / keys.length : 0 };
}

// The bench page's own frames (accuracy/page.html: the unit loop, and the
// `start` arrow that constructs a Profiler, where Chromium's native sampler
// puts its first samples while it starts, 1-2 % of a 3 s profile; the
// timing loop of units.mjs) and, in V8's own profiles, Playwright's
// evaluation wrapper (no resource) are not the library's: neither side's
// top-15 ranks them.
const HARNESS = /\/tests\/bench\/(accuracy\/page\.html|units\.mjs)$|^$/;
const library = (map) => new Map([...map].filter(([key]) => !HARNESS.test(key.split('\u0000')[1])));

/**
 * `other` against the reference `ref`: exact matches of ref's top-15 self
 * frames among other's frames, and share errors over the union of both
 * sides' top-15 (so a frame one side overweights counts too); the library's
 * frames only (HARNESS).
 */
export function compareShares(refTrace, otherTrace, { k = 15, weighted = false, names = true } = {}) {
  const ref = shares(refTrace, { names });
  const other = shares(otherTrace, { weighted, names });
  const refTop = top(library(ref.self), k);
  const selfKeys = [...new Set([...refTop, ...top(library(other.self), k)])];
  const inclKeys = [...new Set([...top(library(ref.inclusive), k), ...top(library(other.inclusive), k)])];
  const worst = selfKeys
    .map((key) => ({
      name: key.split('\u0000')[0],
      native: ref.self.get(key) || 0,
      poly: other.self.get(key) || 0,
    }))
    .sort((a, b) => Math.abs(b.native - b.poly) - Math.abs(a.native - a.poly))
    .slice(0, 3);
  // What a miss is: the frame's name and line, and its share in the reference.
  const missing = refTop
    .filter((key) => !other.frames.has(key))
    .map((key) => {
      const [name, , line] = key.split('\u0000');
      return { name, line: Number(line), native: ref.self.get(key) };
    });
  return {
    top15: { matched: refTop.length - missing.length, of: refTop.length, missing },
    self: errors(ref.self, other.self, selfKeys),
    inclusive: errors(ref.inclusive, other.inclusive, inclKeys),
    worst,
  };
}

/**
 * Samples by their leaf frame's name ('(anonymous)' for ''), and how many
 * have no stack at all (the native Profiler's RegExp samples:
 * tests/bench/native_blind_spots.mjs).
 */
export function leafCounts(trace) {
  const byName = new Map();
  let noStack = 0;
  for (const s of trace.samples) {
    if (s.stackId === undefined) {
      noStack++;
      continue;
    }
    const name = trace.frames[trace.stacks[s.stackId].frameId].name || '(anonymous)';
    byName.set(name, (byName.get(name) || 0) + 1);
  }
  return { samples: trace.samples.length, noStack, byName };
}

/** p50/p90/p99 of the gaps between consecutive samples taken in [t0, t1]. */
export function spacing(trace, t0, t1) {
  const ts = trace.samples.map((s) => s.timestamp).filter((t) => t >= t0 && t <= t1);
  const gaps = [];
  for (let i = 1; i < ts.length; i++) gaps.push(ts[i] - ts[i - 1]);
  gaps.sort((a, b) => a - b);
  const q = (p) => (gaps.length ? gaps[Math.min(gaps.length - 1, Math.floor(p * gaps.length))] : NaN);
  return { p50: q(0.5), p90: q(0.9), p99: q(0.99), max: gaps.length ? gaps[gaps.length - 1] : NaN };
}

/**
 * Each named phase's share (percent) of the time in all phases: from a
 * trace, the samples whose stack holds the phase's frame (its inclusive
 * samples); from `ms` (the page's timed run), its wall time. Shares among
 * the phases only, so idle and garbage-collection samples, which no side
 * attributes alike, do not count. Empty when the library has no phases.
 */
export function phaseShares(source) {
  const counts = new Map();
  if (!Array.isArray(source.samples)) {
    for (const [name, ms] of Object.entries(source)) counts.set(name, ms);
  } else {
    for (const s of source.samples) {
      for (let id = s.stackId; id !== undefined; id = source.stacks[id].parentId) {
        const name = source.frames[source.stacks[id].frameId].name;
        if (name.startsWith('wpPhase')) {
          counts.set(name, (counts.get(name) || 0) + 1);
          break;
        }
      }
    }
  }
  const total = [...counts.values()].reduce((a, b) => a + b, 0);
  return new Map([...counts].map(([k, v]) => [k, (100 * v) / Math.max(total, 1e-9)]));
}

/** Largest phase-share error (points) of `shares` against the timed truth. */
export function phaseError(truth, shares) {
  let max = 0;
  for (const k of new Set([...truth.keys(), ...shares.keys()]))
    max = Math.max(max, Math.abs((truth.get(k) || 0) - (shares.get(k) || 0)));
  return max;
}
