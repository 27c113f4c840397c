// A short text summary of a ProfilerTrace: the hottest functions by self
// samples (the innermost frame of each sample) and by total samples (any
// frame of the sample's stack, counted once per sample). The counting is the
// core's (src/export/summary.h: rows, recursion, self <= total); this module
// adds the percentages and the text. It is the tools module's JS
// (js/tools-js.mjs): the counting runs in the tools module, so the summary
// is there only once it is loaded; the public names call through
// (js/export/summary-calls.mjs).
import { summarizeProfile } from './write.mjs';

/**
 * @param {{resources: string[], frames: object[], stacks: object[], samples: object[]}} trace
 * @param {{top?: number}} [options]
 */
export function summarize(trace, options = {}) {
  const top = options.top ?? 10;
  if (!Number.isInteger(top) || top < 0)
    throw new TypeError('webprof: summarize top must be an integer >= 0');
  const s = summarizeProfile(trace, top);
  const n = s.samples || 1;
  return {
    samples: s.samples,
    withStack: s.withStack,
    durationMs: s.durationMs,
    medianGapMs: medianGap(trace.samples),
    top: s.top.map((r) => ({
      name: r.name || '(anonymous)',
      url: r.url,
      line: r.line || undefined,
      self: r.self,
      total: r.total,
      selfPercent: (100 * r.self) / n,
      totalPercent: (100 * r.total) / n,
    })),
  };
}

// The median time between consecutive samples (ms; NaN with fewer than two):
// what a sampler really gave, which can be coarser than what was asked (V8's
// sampler asked for 0.1 ms samples about 0.4 ms apart).
function medianGap(samples) {
  if (!Array.isArray(samples) || samples.length < 2) return NaN;
  const gaps = new Float64Array(samples.length - 1);
  for (let i = 1; i < samples.length; i++) gaps[i - 1] = samples[i].timestamp - samples[i - 1].timestamp;
  return gaps.sort()[gaps.length >> 1];
}

/**
 * Why a polyfill trace has (almost) no JS stacks, and what to do — or null.
 * The polyfill samples only where webprof's checks run (task boundaries,
 * clock reads, the transform's checks): a busy page nobody prepared is
 * sampled between its tasks, never inside them. An idle page gives the same
 * picture, so the text says "if the page was busy".
 */
export function sparseDiagnostic(summary, backend) {
  if (backend !== 'polyfill' || summary.samples < 5 || summary.withStack > summary.samples * 0.05)
    return null;
  return (
    `note: ${summary.samples - summary.withStack} of ${summary.samples} samples have no JS stack. If the page was ` +
    `busy, the polyfill could not see inside its synchronous code: serve the page with ` +
    `\`Document-Policy: js-profiling\` and \`Server-Timing: js-profiling\` (Chromium's own sampler), add the ` +
    `build-time transform (webprof/transform/esbuild, /rollup, /vite), or use the drop-in's data-dense mode ` +
    `(dist/webprof-sw.js); webprof/playwright and \`webprof record\` rewrite the page's scripts unless dense is off.`
  );
}

// A page whose trace has (almost) no JS stack is told why, once per realm,
// in its console (a Profiler's stop(), js/profiler/profiler.mjs).
let warnedSparse = false;
export function warnIfSparse(trace) {
  if (warnedSparse || typeof document === 'undefined' || typeof console === 'undefined') return;
  const note = sparseDiagnostic(summarize(trace, { top: 0 }), 'polyfill');
  if (!note) return;
  warnedSparse = true;
  console.warn(`webprof: ${note}`);
}

const SAMPLERS = {
  native: 'Chromium native',
  devtools: 'Chromium DevTools',
  gecko: "Gecko (Firefox's own)",
  polyfill: 'webprof polyfill',
};

/** Which sampler a backend name stands for, for people ("Chromium native", "Gecko (Firefox's own)", …). */
export function samplerName(backend) {
  return SAMPLERS[backend] || String(backend);
}

/**
 * The summary as aligned text lines (with sparseDiagnostic's note when it has one);
 * with `backend` (and `sampleInterval`, ms) the first line says which sampler ran and how often.
 */
export function formatSummary(summary, { backend, denseMode, sampleInterval } = {}) {
  const lines = [];
  let every = typeof sampleInterval === 'number' ? `, every ${sampleInterval} ms` : '';
  // A sampler coarser than asked says so (a quarter's margin: timers jitter).
  if (every && summary.medianGapMs > sampleInterval * 1.25)
    every += ` asked, ${+summary.medianGapMs.toPrecision(2)} ms apart (median)`;
  const mode = denseMode ? ` (${denseMode} mode)` : '';
  lines.push(
    `samples: ${summary.samples} (${summary.withStack} with a JS stack) over ${summary.durationMs.toFixed(1)} ms` +
      (backend ? `, sampler: ${samplerName(backend)}${mode}${every}` : ''),
  );
  lines.push('self%   total%  function (location)');
  for (const r of summary.top) {
    const where = r.url ? ` (${r.url}${r.line ? ':' + r.line : ''})` : '';
    lines.push(
      `${r.selfPercent.toFixed(1).padStart(5)}%  ${r.totalPercent.toFixed(1).padStart(5)}%  ${r.name}${where}`,
    );
  }
  const note = sparseDiagnostic(summary, backend);
  if (note) lines.push(note);
  return lines.join('\n') + '\n';
}
