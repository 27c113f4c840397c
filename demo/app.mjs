// The demo page: profile the workload for N seconds with the JS
// Self-Profiling API (webprof's Profiler: native sampler where allowed,
// else the polyfill; ?backend=polyfill|native picks one),
// record probes, export in every format and open the result in Perfetto.
import * as webprof from 'webprof';
import { probes } from './probes.mjs';
import { runRound } from './workload.mjs';
import { summarizeProfile, renderSummary } from './summary.mjs';

const $ = (id) => document.getElementById(id);
const params = new URLSearchParams(location.search);
const local = ['127.0.0.1', 'localhost', '[::1]'].includes(location.hostname);
const defaultPerfetto = local ? `${location.origin}/e2e/perfetto-standin/` : webprof.PERFETTO_ORIGIN;
// ?perfetto= comes from whoever wrote the link: only an absolute http(s) URL
// (webprof's own rule, perfettoUrl) is taken; anything else is refused and said.
// `npm start` passes the real UI when it can reach it, else `none` (the
// speedscope flame chart needs no network).
const noPerfetto = params.get('perfetto') === 'none';
const perfettoRefused = params.has('perfetto') && !noPerfetto && !validPerfetto(params.get('perfetto'));
const perfettoOrigin = noPerfetto
  ? 'none'
  : params.has('perfetto') && !perfettoRefused
    ? params.get('perfetto')
    : defaultPerfetto;
function validPerfetto(base) {
  try {
    webprof.perfettoUrl({}, base);
    return true;
  } catch {
    return false;
  }
}
// speedscope's built app (npm), served from this repository's node_modules.
const SPEEDSCOPE = '/node_modules/speedscope/dist/release/index.html';

// State the e2e tests and the headless runner read.
const demo = (window.demo = { state: 'idle', error: null, perfetto: null, sizes: null });
demo.perfettoOrigin = perfettoOrigin;
if (perfettoRefused)
  status(`?perfetto= is not an absolute http(s) URL: ignored, the Perfetto UI is ${perfettoOrigin}`);

function status(text) {
  $('status').textContent = text;
}

// webprof's Profiler picks the sampler: Chromium's native one where the page's
// Document-Policy allows it (npm start serves it so), the polyfill elsewhere.
function startProfiler() {
  const backend = params.get('backend') || 'auto';
  return new webprof.Profiler({ sampleInterval: 1, maxBufferSize: 1_000_000, backend });
}

const nextFrame = () => new Promise((r) => setTimeout(r, 0));

async function profile(seconds) {
  demo.state = 'profiling';
  status(`profiling for ${seconds} s…`);
  await webprof.ready;
  const profiler = startProfiler();
  probes.start({ markLimit: 4096, traceLimit: 65536 });
  const until = performance.now() + seconds * 1000;
  let round = 0;
  while (performance.now() < until) {
    runRound($('workload-table'), round++);
    await nextFrame(); // let the sampler and the page breathe
  }
  const report = probes.end();
  if (!report) throw new Error('the probes window reported nothing');
  const trace = await profiler.stop();
  return { profile: trace, ...report, rounds: round, interval: profiler.sampleInterval || 10 };
}

// One download link per export format (the core's registry), made once.
function link(format, buffer) {
  let a = $(`dl-${format.id}`);
  if (!a) {
    a = document.createElement('a');
    a.id = `dl-${format.id}`;
    a.download = format.fileName;
    a.textContent = format.fileName;
    const links = $('download-links');
    if (links.childElementCount) links.append(' · ');
    links.append(a);
  }
  if (a.href) URL.revokeObjectURL(a.href);
  a.href = URL.createObjectURL(new Blob([buffer], { type: format.mimeType }));
}

// The flame chart: speedscope fetches the .cpuprofile from a blob: URL of
// this origin (its #profileURL= parameter); no network needed.
function showFlameChart(bytes, title) {
  const frame = $('flame');
  const previous = frame.dataset.profile;
  const url = URL.createObjectURL(new Blob([bytes], { type: 'application/json' }));
  frame.dataset.profile = url;
  // A new src with only a new #hash would not reload the app.
  frame.src = 'about:blank';
  frame.src = `${SPEEDSCOPE}?${Date.now()}#profileURL=${encodeURIComponent(url)}&title=${encodeURIComponent(title)}`;
  if (previous) setTimeout(() => URL.revokeObjectURL(previous), 10_000);
  $('flame-section').hidden = false;
}

async function run(seconds) {
  $('profile').disabled = true;
  try {
    const result = await profile(seconds);
    const input = {
      profile: result.profile,
      marks: result.marks,
      traces: result.traces,
      aggregates: result.aggregates,
    };
    status('exporting…');
    // Every format of the registry; sizes are keyed by file extension.
    demo.sizes = {};
    let pf = null;
    for (const format of webprof.exportFormats()) {
      const bytes = webprof.exportTrace(format.id, input, { threadName: 'main (demo)' });
      demo.sizes[format.extension] = bytes.byteLength;
      link(format, bytes);
      if (format.id === 'perfetto') pf = bytes;
      if (format.id === 'cpuprofile') showFlameChart(bytes, `webprof demo ${seconds}s`);
    }
    $('sizes').textContent = `(${Object.entries(demo.sizes)
      .map(([k, v]) => `${k} ${(v / 1024).toFixed(1)} KiB`)
      .join(', ')})`;
    $('downloads').hidden = false;
    demo.summary = summarizeProfile(result.profile, result.interval);
    renderSummary($('summary'), demo.summary, result);
    if (perfettoOrigin === 'none') {
      demo.state = 'done';
      status(
        `done: ${result.profile.samples.length} samples, ${result.rounds} rounds (Perfetto UI not reachable)`,
      );
      return;
    }
    $('perfetto').hidden = false;
    status(`opening Perfetto UI at ${perfettoOrigin}…`);
    demo.state = 'opening';
    $('viewer').replaceChildren();
    // pf is transferred to the UI (detached here); downloads keep their Blob.
    demo.perfetto = await webprof.openInPerfetto(pf.slice(0), {
      title: `webprof demo ${seconds}s`,
      container: $('viewer'),
      origin: perfettoOrigin,
      keepApiOpen: true,
      fileName: 'trace.pftrace',
      timeoutMs: Number(params.get('perfettoTimeout') || 15000),
    });
    demo.state = 'done';
    status(`done: ${result.profile.samples.length} samples, ${result.rounds} rounds`);
  } catch (e) {
    demo.state = 'error';
    demo.error = String(e && e.message ? e.message : e);
    status('');
    const p = document.createElement('p');
    p.className = 'error';
    p.textContent = demo.error;
    $('summary').prepend(p);
  } finally {
    $('profile').disabled = false;
  }
}

$('profile').addEventListener('click', () => run(Number($('seconds').value) || 3));
if (params.has('profile')) {
  const n = Number(params.get('profile'));
  $('seconds').value = String(n > 0 ? n : 3);
  run(n > 0 ? n : 3);
}
