// Merging many profiles: `webprof/merge` (the core's merger, inputs read in
// chunks into Wasm memory) against a plain JS merger in the same run
// (readFileSync + JSON.parse + a Map of stacks keyed by function identity:
// what one writes without webprof), on generated traces of 10 000 samples
// each — a third W3C trace JSON, a third .cpuprofile, a third Chrome trace
// JSON, over one workload's functions (2 000 stacks of 300 functions, each
// trace sampling a different 400 of them).
//
//   node tests/bench/merge_bench.mjs [files=1000] [samples=10000]
//
// Memory: each merge runs in a child process of its own, over the first 10,
// 100 and 1000 files; peak RSS and the Wasm memory must not grow with the
// number of files. Speed: both mergers over all files, best of 2 each,
// alternating; both must find the same totals (samples and ns: the same
// documented time rule, written twice). Expects `npm run build`.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const self = fileURLToPath(import.meta.url);

// ---- generated inputs ----
function rng(seed) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// One workload: functions (name, script, line, column) and stack paths.
function workload() {
  const r = rng(7);
  const scripts = Array.from({ length: 20 }, (_, i) => `https://app.test/assets/chunk-${i}.js`);
  const fns = Array.from({ length: 300 }, (_, i) => ({
    name: i % 17 === 0 ? '' : `fn${i}`,
    url: scripts[i % 20],
    line: 1 + ((i * 37) % 900),
    column: 1 + ((i * 13) % 80),
  }));
  const paths = [];
  for (let i = 0; i < 2000; i++) {
    const parent = i < 20 || r() < 0.1 ? [] : paths[Math.floor(r() * i)];
    paths.push([...parent.slice(0, 14), Math.floor(r() * 300)]);
  }
  return { fns, paths };
}

// Trace k: 400 of the paths, samples drawn with a skew, ~1 ms apart.
function sampleTrace(w, k, n) {
  const r = rng(1000 + k);
  const chosen = Array.from({ length: 400 }, () => Math.floor(r() * w.paths.length));
  const samples = [];
  let t = 1000 + r() * 100;
  for (let i = 0; i < n; i++) {
    t += 0.9 + r() * 0.2;
    const idle = r() < 0.05;
    samples.push({ t: Math.round(t * 1000) / 1000, path: idle ? -1 : chosen[Math.floor(r() * r() * 400)] });
  }
  return { samples, end: t + 1 };
}

function w3c(w, tr) {
  const frames = w.fns.map((f) => ({
    name: f.name,
    resourceId: Number(f.url.match(/(\d+)\.js$/)[1]),
    line: f.line,
    column: f.column,
  }));
  const resources = [...new Set(w.fns.map((f) => f.url))];
  const stacks = [];
  const ids = new Map();
  const stackOf = (p) => {
    let parent;
    for (let d = 0; d < p.length; d++) {
      const key = p.slice(0, d + 1).join(',');
      let id = ids.get(key);
      if (id === undefined) {
        id = stacks.push(parent === undefined ? { frameId: p[d] } : { frameId: p[d], parentId: parent }) - 1;
        ids.set(key, id);
      }
      parent = id;
    }
    return parent;
  };
  const samples = tr.samples.map((s) =>
    s.path < 0 ? { timestamp: s.t } : { timestamp: s.t, stackId: stackOf(w.paths[s.path]) },
  );
  return JSON.stringify({ resources, frames, stacks, samples });
}

// V8's node tree for the trace's paths: [nodes, nodeOf(path) -> id].
function v8Nodes(w, tr, withChildren) {
  const nodes = [
    {
      id: 1,
      callFrame: { functionName: '(root)', scriptId: '0', url: '', lineNumber: -1, columnNumber: -1 },
    },
  ];
  const ids = new Map();
  const nodeOf = (p) => {
    if (p < 0) return 1;
    const path = w.paths[p];
    let parent = 1;
    for (let d = 0; d < path.length; d++) {
      const key = path.slice(0, d + 1).join(',');
      let id = ids.get(key);
      if (id === undefined) {
        const f = w.fns[path[d]];
        id = nodes.length + 1;
        const node = {
          id,
          callFrame: {
            functionName: f.name,
            scriptId: '1',
            url: f.url,
            lineNumber: f.line - 1,
            columnNumber: f.column - 1,
          },
        };
        if (withChildren) (nodes[parent - 1].children ??= []).push(id);
        else node.parent = parent;
        nodes.push(node);
        ids.set(key, id);
      }
      parent = id;
    }
    return parent;
  };
  const samples = tr.samples.map((s) => nodeOf(s.path));
  return { nodes, samples };
}

function deltas(tr, start) {
  let prev = start;
  return tr.samples.map((s) => {
    const us = Math.round(s.t * 1000);
    const d = us - prev;
    prev = us;
    return d;
  });
}

function cpuprofile(w, tr) {
  const { nodes, samples } = v8Nodes(w, tr, true);
  const start = Math.round(tr.samples[0].t * 1000) - 500;
  return JSON.stringify({
    nodes,
    startTime: start,
    endTime: Math.round(tr.end * 1000),
    samples,
    timeDeltas: deltas(tr, start),
  });
}

function chromeTrace(w, tr) {
  const { nodes, samples } = v8Nodes(w, tr, false);
  const start = Math.round(tr.samples[0].t * 1000) - 500;
  const d = deltas(tr, start);
  const ev = [
    {
      args: { name: 'CrRendererMain' },
      cat: '__metadata',
      name: 'thread_name',
      ph: 'M',
      pid: 1,
      tid: 1,
      ts: 0,
    },
    {
      args: { data: { startTime: start } },
      cat: 'disabled-by-default-v8.cpu_profiler',
      id: '0x1',
      name: 'Profile',
      ph: 'P',
      pid: 1,
      tid: 1,
      ts: start,
    },
  ];
  for (let i = 0; i < samples.length; i += 1000) {
    const data = { cpuProfile: { samples: samples.slice(i, i + 1000) }, timeDeltas: d.slice(i, i + 1000) };
    if (i === 0) data.cpuProfile.nodes = nodes;
    if (i + 1000 >= samples.length) data.endTime = Math.round(tr.end * 1000);
    ev.push({
      args: { data },
      cat: 'disabled-by-default-v8.cpu_profiler',
      id: '0x1',
      name: 'ProfileChunk',
      ph: 'P',
      pid: 1,
      tid: 2,
      ts: start,
    });
  }
  return JSON.stringify({ traceEvents: ev });
}

function generate(dir, files, n) {
  const stamp = join(dir, `.done-${files}-${n}`);
  if (existsSync(stamp)) return;
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const w = workload();
  const writers = [w3c, cpuprofile, chromeTrace];
  const ext = ['json', 'cpuprofile', 'json'];
  for (let k = 0; k < files; k++) {
    const tr = sampleTrace(w, k, n);
    writeFileSync(
      join(dir, `${String(k).padStart(4, '0')}.${['w3c', 'v8', 'chrome'][k % 3]}.${ext[k % 3]}`),
      writers[k % 3](w, tr),
    );
  }
  writeFileSync(stamp, '');
}

// ---- the plain JS merger (the baseline) ----
// The same rules: function identity (name, url, line, column), 1-based
// positions; a sample lasts until the next, the last until endTime or the
// median gap; (root)/(program)/(idle) are no function.
function jsMerge(files) {
  const stacks = new Map(); // "parentKey\u0001frameKey" -> index
  const count = [];
  const time = [];
  let stackless = [0, 0];
  let samples = 0;
  let total = 0;
  const intern = (parent, frameKey) => {
    const key = `${parent}\u0001${frameKey}`;
    let id = stacks.get(key);
    if (id === undefined) {
      id = stacks.size;
      stacks.set(key, id);
      count.push(0);
      time.push(0);
    }
    return id;
  };
  const fold = (ids, times, end) => {
    // ids: merged stack per sample (-1 none); times: ms, sorted.
    const n = ids.length;
    if (!n) return;
    const ns = times.map((t) => Math.round(t * 1e6));
    const gaps = [];
    for (let i = 0; i + 1 < n; i++) gaps.push(Math.max(0, ns[i + 1] - ns[i]));
    let last = 0;
    const endNs = end === undefined ? NaN : Math.round(end * 1e6);
    if (endNs > ns[n - 1]) last = endNs - ns[n - 1];
    else if (gaps.length) last = [...gaps].sort((a, b) => a - b)[gaps.length >> 1];
    for (let i = 0; i < n; i++) {
      const g = i + 1 < n ? gaps[i] : last;
      if (ids[i] < 0) {
        stackless[0]++;
        stackless[1] += g;
      } else {
        count[ids[i]]++;
        time[ids[i]] += g;
      }
      total += g;
    }
    samples += n;
  };
  const pseudo = (cf) =>
    !cf.url &&
    (cf.functionName === '(root)' || cf.functionName === '(program)' || cf.functionName === '(idle)');
  const v8 = (nodes, ids, timesUs, startUs, endUs) => {
    const byId = new Map(nodes.map((x) => [x.id, x]));
    const parent = new Map();
    for (const x of nodes) {
      if (x.parent !== undefined) parent.set(x.id, x.parent);
      for (const c of x.children ?? []) parent.set(c, x.id);
    }
    const merged = new Map();
    const stackOf = (id) => {
      if (merged.has(id)) return merged.get(id);
      const x = byId.get(id);
      const p = parent.has(id) ? stackOf(parent.get(id)) : -1;
      const cf = x.callFrame;
      const s = pseudo(cf)
        ? p
        : intern(
            p,
            `${cf.functionName}\u0000${cf.url}\u0000${cf.lineNumber + 1}\u0000${cf.columnNumber + 1}`,
          );
      merged.set(id, s);
      return s;
    };
    const order = timesUs.map((t, i) => i);
    if (timesUs.some((t, i) => i > 0 && t < timesUs[i - 1]))
      order.sort((a, b) => timesUs[a] - timesUs[b] || a - b);
    const origin = Math.min(startUs, ...(order.length ? [timesUs[order[0]]] : []));
    fold(
      order.map((i) => stackOf(ids[i])),
      order.map((i) => (timesUs[i] - origin) / 1000),
      endUs === undefined ? undefined : (endUs - origin) / 1000,
    );
  };
  for (const file of files) {
    const p = JSON.parse(readFileSync(file, 'utf8'));
    if (p.nodes) {
      let t = p.startTime;
      v8(
        p.nodes,
        p.samples,
        p.timeDeltas.map((d) => (t += d)),
        p.startTime,
        p.endTime,
      );
    } else if (p.traceEvents) {
      let nodes = [];
      let ids = [];
      let d = [];
      let start = 0;
      let end;
      for (const e of p.traceEvents) {
        if (e.name === 'Profile') start = e.args.data.startTime;
        if (e.name !== 'ProfileChunk') continue;
        const data = e.args.data;
        nodes = nodes.concat(data.cpuProfile.nodes ?? []);
        ids = ids.concat(data.cpuProfile.samples ?? []);
        d = d.concat(data.timeDeltas ?? []);
        if (data.endTime !== undefined) end = data.endTime;
      }
      let t = start;
      v8(
        nodes,
        ids,
        d.map((x) => (t += x)),
        start,
        end,
      );
    } else {
      const mergedOf = [];
      for (let i = 0; i < p.stacks.length; i++) {
        const s = p.stacks[i];
        const f = p.frames[s.frameId];
        mergedOf.push(
          intern(
            s.parentId === undefined ? -1 : mergedOf[s.parentId],
            `${f.name}\u0000${p.resources[f.resourceId] ?? ''}\u0000${f.line ?? 0}\u0000${f.column ?? 0}`,
          ),
        );
      }
      const inOrder = p.samples.every((x, i) => i === 0 || x.timestamp >= p.samples[i - 1].timestamp);
      const sorted = inOrder ? p.samples : [...p.samples].sort((a, b) => a.timestamp - b.timestamp);
      fold(
        sorted.map((s) => (s.stackId === undefined ? -1 : mergedOf[s.stackId])),
        sorted.map((s) => s.timestamp),
        undefined,
      );
    }
  }
  return { samples, timeNs: total, stacks: count.filter((c) => c > 0).length + (stackless[0] > 0 ? 1 : 0) };
}

// ---- children: one merge each, its peak memory ----
async function child(kind, dir, files) {
  const list = readdirSync(dir)
    .filter((f) => !f.startsWith('.'))
    .sort()
    .slice(0, files)
    .map((f) => join(dir, f));
  let result;
  let t0;
  let c0;
  const start = () => {
    t0 = performance.now();
    c0 = process.cpuUsage();
  };
  if (kind === 'js') {
    start();
    result = jsMerge(list);
  } else {
    const { ProfileMerger, ready } = await import('webprof/merge');
    await ready;
    start(); // the core is loaded once per process: not counted
    const m = new ProfileMerger();
    for (const f of list) m.add(f);
    m.write('pprof');
    const t = m.totals();
    result = {
      samples: t.samples,
      timeNs: t.timeNs,
      stacks: t.stacks,
      memoryBytes: t.memoryBytes,
      wasmBytes: t.wasmMemoryBytes,
    };
    m.dispose();
  }
  const cpu = process.cpuUsage(c0);
  result.wallMs = performance.now() - t0;
  // CPU time of this process: the machine is shared, wall time is not ours.
  result.ms = (cpu.user + cpu.system) / 1000;
  result.maxRssKb = process.resourceUsage().maxRSS;
  process.stdout.write(JSON.stringify(result));
}

function run(kind, dir, files) {
  const r = spawnSync(process.execPath, [self, '--child', kind, dir, String(files)], {
    encoding: 'utf8',
    maxBuffer: 1 << 20,
  });
  if (r.status !== 0) throw new Error(`${kind} ${files}: ${r.stderr}`);
  return JSON.parse(r.stdout);
}

if (process.argv[2] === '--child') {
  await child(process.argv[3], process.argv[4], Number(process.argv[5]));
} else {
  const files = Number(process.argv[2] ?? 1000);
  const n = Number(process.argv[3] ?? 10000);
  const dir = join(tmpdir(), 'webprof-merge-bench');
  const g0 = performance.now();
  generate(dir, files, n);
  const bytes = readdirSync(dir)
    .filter((f) => !f.startsWith('.'))
    .reduce((s, f) => s + readFileSync(join(dir, f)).length, 0);
  console.log(
    `${files} traces x ${n} samples in ${dir}: ${(bytes / 1e6).toFixed(0)} MB of JSON (ready in ${((performance.now() - g0) / 1000).toFixed(1)} s)`,
  );

  console.log('\nmemory: one merge per process over the first N files');
  console.log('  files   webprof peak RSS   Wasm memory   merger tables   JS JSON.parse merger peak RSS');
  for (const k of [10, 100, 1000].filter((k) => k <= files)) {
    const w = run('webprof', dir, k);
    const j = run('js', dir, k);
    console.log(
      `  ${String(k).padStart(5)}   ${(w.maxRssKb / 1024).toFixed(0).padStart(12)} MB   ${(w.wasmBytes / 2 ** 20).toFixed(0).padStart(8)} MB   ${(w.memoryBytes / 2 ** 20).toFixed(1).padStart(10)} MB   ${(j.maxRssKb / 1024).toFixed(0).padStart(12)} MB`,
    );
  }

  console.log(
    `\nspeed: all ${files} files, best of 2 (alternating), CPU time of the merge (wall time in parentheses)`,
  );
  let best = { js: null, webprof: null };
  for (let rep = 0; rep < 2; rep++)
    for (const kind of ['js', 'webprof']) {
      const r = run(kind, dir, files);
      if (!best[kind] || r.ms < best[kind].ms) best[kind] = r;
    }
  const { js, webprof } = best;
  const line = (r) =>
    `${(r.ms / 1000).toFixed(2)} s CPU (${(r.wallMs / 1000).toFixed(2)} s wall), ${r.samples} samples, ${r.stacks} stacks`;
  console.log(`  JSON.parse + JS Map merger: ${line(js)}`);
  console.log(`  webprof merge (core):       ${line(webprof)}`);
  console.log(
    `  ratio: ${(js.ms / webprof.ms).toFixed(2)}x  (${(bytes / 1e6 / (webprof.ms / 1000)).toFixed(0)} MB/s of JSON)`,
  );
  const same = js.samples === webprof.samples && js.timeNs === webprof.timeNs && js.stacks === webprof.stacks;
  console.log(
    `  totals equal: ${same ? 'yes' : `NO: js ${js.samples}/${js.timeNs}/${js.stacks} vs webprof ${webprof.samples}/${webprof.timeNs}/${webprof.stacks}`}`,
  );
  if (!same) process.exitCode = 1;
}
