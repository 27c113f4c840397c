// Compiled by `tsc -p tests/types` in the test command: the published
// declarations must describe the API as a user calls it.
import * as webprof from 'webprof';
import {
  profile,
  withWebprof,
  record,
  withSharedMemory,
  exportFormats as playwrightFormats,
} from 'webprof/playwright';
import type { Page } from 'playwright-core';

async function main(page: Page) {
  await webprof.ready;
  const s = new webprof.TraceSession({ maxBufferSize: 10 });
  const f = s.frame({ name: 'f', resourceId: s.resource('https://a/x.js'), line: 1, column: 2 });
  const kept: boolean = s.sample(1, s.stack(f));
  const trace: webprof.ProfilerTrace = s.toTrace();
  s.dispose();

  const p = new webprof.Profiler({ sampleInterval: 1, maxBufferSize: 100 });
  const t: webprof.ProfilerTrace = await p.stop();

  webprof.start({ markLimit: 16 });
  const id: number = webprof.aggrStart('x');
  webprof.aggrEnd(id);
  webprof.mark('m', { a: 1 });
  webprof.end((aggregates: Map<string, webprof.AggrResult>, marks?: webprof.MarkTimeline) => {
    void aggregates.get('x')?.p99;
    void marks?.events;
  });

  const json: ArrayBuffer = webprof.toChromeTrace({ profile: t });
  const loaded: Promise<void> = webprof.loadExporters();
  await loaded;
  const pf: ArrayBuffer = webprof.toPerfettoTrace({ profile: trace });
  const gz: ArrayBuffer = webprof.toPprof({ profile: trace });
  void gz;
  void webprof.toCpuProfile({ profile: t });
  const formats: webprof.ExportFormat[] = webprof.exportFormats();
  const bytes: ArrayBuffer = webprof.exportTrace(formats[0].id, { profile: trace }, { threadName: 'main' });
  const unregister: () => void = webprof.registerExportFormat({
    id: 'lines',
    name: 'Sample count',
    extension: 'txt',
    mimeType: 'text/plain',
    write: (input) => new TextEncoder().encode(String(input.profile ? 1 : 0)),
  });
  unregister();
  void [bytes, formats[0].fileName, formats[0].mimeType];
  const summary: webprof.TraceSummary = webprof.summarize(t);

  const rp = new webprof.RuntimeProfiler();
  rp.start(undefined, 500, 10_000);
  rp.stop();
  const fn: webprof.RuntimeFunction | undefined = rp.results().children[0]?.function;
  const defined: number | undefined = fn?.line;
  void [defined, fn?.file, fn?.name];
  void webprof.formatSummary(summary, {
    backend: 'polyfill',
    denseMode: webprof.denseMode().mode,
    sampleInterval: 1,
  });

  const r = await profile(page, async () => {}, { sampleInterval: 1, dense: true });
  const files: string[] = await r.save('/tmp/out');
  const recorded = await record({ url: 'http://127.0.0.1/', seconds: 1, out: '/tmp/out', ticker: false });
  const args: string[] = withSharedMemory(['--no-sandbox']);
  const mode: 'ticker' | 'counter' | null = recorded.denseMode;
  void [args, mode];
  const fileNames: string[] = playwrightFormats().map((f) => f.fileName);
  void [recorded.files, fileNames];
  void [kept, json, pf, files, withWebprof];
}
void main;
