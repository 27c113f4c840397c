// `webprof/merge` as a user calls it (tsc -p tests/types).
import { createReadStream } from 'node:fs';
import { mergeProfiles, ProfileMerger, ready, WebprofError, type MergeInputInfo } from 'webprof/merge';

async function merge(files: string[], body: Uint8Array) {
  await ready;
  const r = await mergeProfiles(files, { out: 'merged', skipInvalid: true, sourceMaps: { 'app.js': '{}' } });
  const samples: number = r.totals.samples;
  const pb: ArrayBuffer | undefined = r.files['profile.pb.gz'];
  for (const e of r.errors) console.log(e.name, e.message);

  const m = new ProfileMerger({ sourceMaps: new Map([['https://a.test/app.js', { version: 3 }]]) });
  try {
    const info: MergeInputInfo = m.add(body, 'beacon-1');
    const streamed: MergeInputInfo = await m.addStream(createReadStream(files[0]), files[0]);
    m.addSourceMap('lib.js', new Uint8Array(), 'https://a.test/lib.js.map');
    const pprof: ArrayBuffer = m.write('pprof');
    const written: string[] = await m.writeFiles('out');
    const ns: number = m.totals().timeNs + info.timeNs + streamed.samples;
    void [samples, pb, pprof, written, ns];
  } catch (e) {
    if (e instanceof WebprofError) console.log(e.message);
  } finally {
    m.dispose();
  }
}
void merge;
