// A profile's outputs: the page's plain data exported in Node by the core
// into one file per format of the export registry, a summary (text too),
// and save(dir). Shared by the fixture, profile() and `webprof record`.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import * as webprof from '../index.mjs';
import { summarize, formatSummary, samplerName, sparseDiagnostic } from '../export/summary.mjs';

/**
 * Turns the page's data into exported files, a summary and save(dir).
 * extra: workers (their results), unsampled (what the route left as it
 * was, and why), pageErrors (what the page threw); all end up in the
 * summary text too.
 */
export async function makeResult(
  { trace, probes, backend, denseMode = null, sampleInterval, startedAt },
  { workers = [], unsampled = [], pageErrors = [], documents = [], problems = [] } = {},
) {
  await webprof.ready;
  const input = { profile: trace };
  if (probes) {
    input.aggregates = new Map(probes.aggregates);
    input.marks = probes.marks;
    input.traces = probes.traces;
  }
  // One file per export format of the registry (js/export/export.mjs).
  const files = {};
  // The trace says which sampler ran, and how often, in its thread's name.
  const every = typeof sampleInterval === 'number' ? `, ${sampleInterval} ms` : '';
  const mode = denseMode ? `, ${denseMode} mode` : '';
  const naming = { threadName: `main (${samplerName(backend)} sampler${mode}${every})` };
  for (const f of webprof.exportFormats()) files[f.fileName] = webprof.exportTrace(f.id, input, naming);
  const summary = summarize(trace);
  let summaryText = formatSummary(summary, { backend, denseMode, sampleInterval });
  if (documents.length) summaryText += documentsText(documents, backend);
  if (problems.length)
    summaryText += `\nnot collected (${problems.length}):\n${problems.map((p) => `  ${p}\n`).join('')}`;
  workers.forEach((w, i) => {
    summaryText += `\nworker ${i + 1} (${w.url}, files in worker-${i + 1}/):\n${w.summaryText}`;
  });
  if (unsampled.length) {
    summaryText += `\nnot rewritten for dense sampling (${unsampled.length}):\n`;
    for (const u of unsampled) summaryText += `  ${u.url}: ${u.reason}\n`;
  }
  if (pageErrors.length) {
    summaryText += `\npage errors (${pageErrors.length}):\n`;
    for (const e of pageErrors) summaryText += `  ${e.name}: ${e.message}\n`;
  }
  files['summary.txt'] = new TextEncoder().encode(summaryText).buffer;
  return {
    trace,
    probes: probes && { aggregates: input.aggregates, marks: probes.marks, traces: probes.traces },
    backend,
    denseMode,
    sampleInterval,
    startedAt,
    files,
    summary,
    summaryText,
    workers,
    unsampled,
    pageErrors,
    /** The documents the profile went through when the page navigated ([] for one): url, timeOrigin, offset (ms), samples, backend, sampleInterval. */
    documents,
    problems,
    /** Why the samples have (almost) no JS stack and what to do, or null (also in summaryText). */
    diagnostic: sparseDiagnostic(summary, backend),
    /** Writes one file per export format and summary.txt into dir (workers: dir/worker-N/). */
    async save(dir) {
      await mkdir(dir, { recursive: true });
      await Promise.all(
        Object.entries(files).map(([name, buf]) => writeFile(join(dir, name), new Uint8Array(buf))),
      );
      const written = Object.keys(files).map((name) => join(dir, name));
      for (let i = 0; i < workers.length; i++)
        written.push(...(await workers[i].save(join(dir, `worker-${i + 1}`))));
      return written;
    },
  };
}

// The documents a navigating profile went through, on the trace's one time base.
function documentsText(documents, backend) {
  let text = `\ndocuments (${documents.length}), one time base: ms from the first one's time origin\n`;
  for (const d of documents) {
    const other = d.backend !== backend ? `, ${samplerName(d.backend)} sampler` : '';
    text += `  from ${d.offset.toFixed(1).padStart(8)} ms  ${d.samples} samples${other}  ${d.url}\n`;
  }
  return text;
}

// The MIME type the format registry gives the file, text for the summary.
export function contentType(name) {
  if (name === 'summary.txt') return 'text/plain';
  const f = webprof.exportFormats().find((x) => x.fileName === name);
  return f ? f.mimeType : 'application/octet-stream';
}
