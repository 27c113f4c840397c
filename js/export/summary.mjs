// A short text summary of a ProfilerTrace: the hottest functions by self
// samples (the innermost frame of each sample) and by total samples (any
// frame of the sample's stack, counted once per sample).
//
// Works on the plain W3C dictionaries so it serves the native and the
// polyfill backend alike, in Node and in the page.

/**
 * @param {{resources: string[], frames: object[], stacks: object[], samples: object[]}} trace
 * @param {{top?: number, sampleInterval?: number}} [options]
 */
export function summarize(trace, options = {}) {
  const top = options.top ?? 10;
  const { frames, stacks, samples, resources } = trace;
  const self = new Float64Array(frames.length);
  const total = new Float64Array(frames.length);
  const seen = new Int32Array(frames.length).fill(-1);
  let withStack = 0;
  for (let i = 0; i < samples.length; i++) {
    let id = samples[i].stackId;
    if (id === undefined) continue;
    withStack++;
    self[stacks[id].frameId]++;
    // A recursive function appears several times in one stack; count it once.
    for (; id !== undefined; id = stacks[id].parentId) {
      const f = stacks[id].frameId;
      if (seen[f] !== i) {
        seen[f] = i;
        total[f]++;
      }
    }
  }
  // Frames of one function at several positions are one row here.
  const rows = new Map();
  frames.forEach((f, i) => {
    const url = f.resourceId === undefined ? '' : resources[f.resourceId];
    const key = `${f.name}\u0000${url}\u0000${f.line ?? ''}`;
    const row = rows.get(key) || { name: f.name || '(anonymous)', url, line: f.line, self: 0, total: 0 };
    row.self += self[i];
    row.total = Math.max(row.total, total[i]);
    rows.set(key, row);
  });
  const n = samples.length || 1;
  const hot = [...rows.values()]
    .filter((r) => r.self > 0 || r.total > 0)
    .sort((a, b) => b.self - a.self || b.total - a.total)
    .slice(0, top)
    .map((r) => ({ ...r, selfPercent: (100 * r.self) / n, totalPercent: (100 * r.total) / n }));
  const first = samples.length ? samples[0].timestamp : 0;
  const last = samples.length ? samples[samples.length - 1].timestamp : 0;
  return { samples: samples.length, withStack, durationMs: last - first, top: hot };
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

/** The summary as aligned text lines (with sparseDiagnostic's note when it has one). */
export function formatSummary(summary, { backend } = {}) {
  const lines = [];
  lines.push(
    `samples: ${summary.samples} (${summary.withStack} with a JS stack) over ${summary.durationMs.toFixed(1)} ms` +
      (backend ? `, sampler: ${backend}` : ''),
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
