// `node js/tools/size-parts.mjs [names.wasm]`: where the drop-in's first
// load goes, as Markdown tables for docs/BENCHMARKS.md.
// - webprof.js by source module: the drop-in's entry bundled and minified by
//   esbuild as a classic script (build constants as js/tools/build.mjs sets
//   them), bytes per module from its metafile; terser's output differs by a
//   few per cent.
// - the page's .wasm by part: function body sizes read from a build of it
//   with a name section (`cmake --build build/wasm --target
//   webprof_wasm_names`, wasm/CMakeLists.txt: the same objects and link),
//   grouped by what they do. LTO inlines across files, so a function counts
//   where it survived (a binding holds what it inlined).
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const kb = (n) => (n / 1024).toFixed(1);

async function jsParts() {
  const version = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).version;
  const r = await esbuild.build({
    entryPoints: [join(root, 'js/index.mjs')],
    bundle: true,
    minify: true,
    format: 'iife',
    platform: 'browser',
    target: 'es2020',
    write: false,
    metafile: true,
    logLevel: 'silent',
    define: {
      __WEBPROF_VERSION__: JSON.stringify(version),
      __WEBPROF_CLASSIC__: 'true',
      'import.meta.url': 'undefined',
    },
  });
  const [out] = Object.values(r.metafile.outputs);
  const rows = Object.entries(out.inputs)
    .map(([path, x]) => [path, x.bytesInOutput])
    .sort((a, b) => b[1] - a[1]);
  const lines = ['| module of webprof.js | minified KB |', '| --- | ---: |'];
  for (const [path, n] of rows) if (n >= 512) lines.push(`| \`${path}\` | ${kb(n)} |`);
  const small = rows.filter(([, n]) => n < 512);
  lines.push(`| ${small.length} modules under 0.5 KB each | ${kb(small.reduce((a, [, n]) => a + n, 0))} |`);
  lines.push(`| all (esbuild) | ${kb(out.bytes)} |`);
  return lines.join('\n');
}

// Function body sizes of a .wasm with a name section: [[bytes, name]].
export function functionSizes(bytes) {
  let p = 8;
  const u = () => {
    let r = 0;
    let s = 0;
    let x;
    do {
      x = bytes[p++];
      r |= (x & 0x7f) << s;
      s += 7;
    } while (x & 0x80);
    return r >>> 0;
  };
  const skipLimits = () => {
    const flags = bytes[p++];
    u();
    if (flags & 1) u();
  };
  let imported = 0;
  const bodies = [];
  const names = new Map();
  while (p < bytes.length) {
    const id = bytes[p++];
    const end = u() + p;
    if (id === 2) {
      for (let n = u(); n > 0; n--) {
        for (let k = 0; k < 2; k++) {
          const len = u(); // read before p moves on
          p += len;
        }
        const kind = bytes[p++];
        if (kind === 0) (u(), imported++);
        else if (kind === 1) (p++, skipLimits());
        else if (kind === 2) skipLimits();
        else p += 2;
      }
    } else if (id === 10) {
      for (let n = u(); n > 0; n--) {
        const size = u();
        bodies.push(size);
        p += size;
      }
    } else if (id === 0) {
      const len = u();
      if (bytes.subarray(p, p + len).toString() === 'name') {
        p += len;
        while (p < end) {
          const sub = bytes[p++];
          const subEnd = u() + p;
          if (sub === 1) {
            for (let n = u(); n > 0; n--) {
              const index = u();
              const l = u();
              names.set(index, bytes.subarray(p, p + l).toString());
              p += l;
            }
          }
          p = subEnd;
        }
      }
    }
    p = end;
  }
  return bodies.map((size, i) => [size, names.get(i + imported) ?? `#${i + imported}`]);
}

// First match wins; the last takes the rest.
const PARTS = [
  [
    'RuntimeProfiler: call tree, results JSON, frame() slots',
    /wp_runtime_|CallTree|RuntimeProfile|FrameAnnotations/,
  ],
  [
    'frame positions and definitions, ResolveFrames (the index of scans before)',
    /wp_source_index_|wp_frame_definitions_|SourceIndex|SourceScan|FindDefinition|FrameDefinitions|FramePositions|ResolveFrames|FunctionDefinition|ScriptRegion|ResolveStats|Definition::|SourcePosition/,
  ],
  [
    'console reporter text',
    /wp_probes_fmt|wp_probes_report|WindowReport|InfoText|Shown\(|Info\(|HasInfo|Count\(|Key\(webprof::AggrResult|Name\(std|Num\(/,
  ],
  [
    'probes: recorder, windows, aggregates',
    /wp_probes_|Aggregate|LogHistogram|MarkTimeline|Recorder|AggrResult|MarkRecord|Window/,
  ],
  [
    'sampler and stack text parsers',
    /wp_profiler_|StackSampler|stack_text|Parse\(|SpecName|ClaimsLine|DeferredStacks|SessionSet|ConfigureSampler|ParsedFrame/,
  ],
  ['W3C trace loader', /wp_trace_load|TraceLoader|Finish\(/],
  [
    'trace tables and sessions',
    /wp_session_|StringTable|FrameTable|StackTable|ProfilerTrace|Session::|SampleBuffer|Sample\b|webprof::Frame/,
  ],
  [
    'boundary: declarations, formats, health, results',
    /Declarations|wp_boundary|boundary::|wp_status|wp_health|Status|wp_result|wp_scratch|wp_poison|wp_debug_trap|Trap\(|bind::|wp_export_formats|Last\(\)|AppendJsonString|AppendUint/,
  ],
  ['decimal text', /Big::|Scale\(|AppendFixed|Big\(/],
  ['intern index, hashing', /InternIndex|HashBytes|HashMix/],
  ['emmalloc', /malloc|free|attempt_allocate|claim_more_memory|operator new/],
  ['libc, libc++ containers and strings', /./],
];

export function wasmParts(bytes) {
  const fns = functionSizes(bytes);
  const total = fns.reduce((a, [n]) => a + n, 0);
  const parts = new Map(PARTS.map(([name]) => [name, { n: 0, bytes: 0 }]));
  for (const [size, name] of fns) {
    const part = parts.get(PARTS.find(([, re]) => re.test(name))[0]);
    part.n++;
    part.bytes += size;
  }
  const lines = [
    "| part of the page's .wasm | functions | code KB | share |",
    '| --- | ---: | ---: | ---: |',
  ];
  for (const [name, p] of [...parts].sort((a, b) => b[1].bytes - a[1].bytes))
    lines.push(`| ${name} | ${p.n} | ${kb(p.bytes)} | ${((100 * p.bytes) / total).toFixed(1)} % |`);
  lines.push(`| all code | ${fns.length} | ${kb(total)} | |`);
  return lines.join('\n');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  console.log(await jsParts());
  const names = process.argv[2] || join(root, 'build/wasm/wasm/webprof-core-names.wasm');
  if (existsSync(names)) console.log(`\n${wasmParts(readFileSync(names))}`);
  else console.log(`\n(no ${names}: cmake --build build/wasm --target webprof_wasm_names)`);
}
