// Compiled by `tsc -p tests/types` in the test command: the published
// declarations must describe the API as a user calls it.
import * as webprof from 'webprof';
import { profile, withWebprof } from 'webprof/playwright';
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
  const pf: ArrayBuffer = webprof.toPerfettoTrace({ profile: trace });
  void webprof.toCpuProfile({ profile: t });
  const summary: webprof.TraceSummary = webprof.summarize(t);

  const rp = new webprof.RuntimeProfiler();
  rp.start(undefined, 500, 10_000);
  rp.stop();
  const fn: webprof.RuntimeFunction | undefined = rp.results().children[0]?.function;
  const defined: number | undefined = fn?.line;
  void [defined, fn?.file, fn?.name];
  void webprof.formatSummary(summary);

  const r = await profile(page, async () => {}, { sampleInterval: 1, dense: true });
  const files: string[] = await r.save('/tmp/out');
  void [kept, json, pf, files, withWebprof];
}
void main;
