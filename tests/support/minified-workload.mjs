// A small app in two original files, built into minified bundles with real
// tools (esbuild, terser, TypeScript, webpack) and their source maps, and a
// V8 .cpuprofile -> W3C ProfilerTrace converter: the setup of
// tests/js/symbolicate.test.mjs and e2e/symbolicate.spec.mjs.
import { mkdirSync, writeFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

// Each hot function spins for `ms` on the clock, so a sampler sees it.
export const TEXT_JS = `export function parseInline(src, ms) {
  const end = Date.now() + ms;
  let n = 0;
  while (Date.now() < end) n += src.charCodeAt(n % src.length);
  return n;
}

export const tokenizeBlock = (src, ms) => {
  const end = Date.now() + ms;
  let n = 0;
  while (Date.now() < end) n ^= src.length + n;
  return n;
};
`;

export const MAIN_JS = `import { parseInline, tokenizeBlock } from './text.js';

export class Renderer {
  render(src, ms) {
    const end = Date.now() + ms;
    let n = 0;
    while (Date.now() < end) n += src.length;
    return n + parseInline(src, ms) + tokenizeBlock(src, ms);
  }
}

export function runWorkload(totalMs) {
  const r = new Renderer();
  const stop = Date.now() + totalMs;
  let x = 0;
  while (Date.now() < stop) x += r.render('some **markdown** text', 6);
  return x;
}
`;

// The original functions: name -> {file, line} of their definition.
export const ORIGINAL = {
  parseInline: { file: 'text.js', line: 1 },
  tokenizeBlock: { file: 'text.js', line: 8 },
  render: { file: 'main.js', line: 4 },
  runWorkload: { file: 'main.js', line: 12 },
};

export const ENTRY_JS = `import { runWorkload } from './main.js';
runWorkload(Number(globalThis.process?.argv[2] ?? 600));
`;

export function writeSources(dir) {
  mkdirSync(join(dir, 'src'), { recursive: true });
  writeFileSync(join(dir, 'src', 'text.js'), TEXT_JS);
  writeFileSync(join(dir, 'src', 'main.js'), MAIN_JS);
  writeFileSync(join(dir, 'src', 'entry.js'), ENTRY_JS);
}

/**
 * The sources above bundled and minified by esbuild into `dir`/app.js with
 * its source map app.js.map (an IIFE; `platform` as esbuild's).
 * @returns {Promise<{bundle: string, map: string}>}
 */
export async function buildMinifiedApp(dir, { platform } = {}) {
  writeSources(dir);
  const esbuild = await import('esbuild');
  await esbuild.build({
    entryPoints: [join(dir, 'src', 'entry.js')],
    bundle: true,
    minify: true,
    sourcemap: true,
    format: 'iife',
    ...(platform ? { platform } : {}),
    outfile: join(dir, 'app.js'),
    logLevel: 'silent',
  });
  return {
    bundle: readFileSync(join(dir, 'app.js'), 'utf8'),
    map: readFileSync(join(dir, 'app.js.map'), 'utf8'),
  };
}

/** True when line `line` (1-based) of `text` defines function `name`. */
export function definesAt(text, line, name) {
  const l = text.split('\n')[line - 1] ?? '';
  return new RegExp(`(function ${name}\\b|\\b${name}\\s*=|^\\s*${name}\\s*\\()`).test(l);
}

/** Loads a V8 .cpuprofile as a W3C ProfilerTrace (1-based positions). */
export function cpuProfileToTrace(cpu) {
  const resources = [];
  const resIds = new Map();
  const frames = [];
  const frameIds = new Map();
  const stacks = [];
  const stackOf = new Map();
  const byId = new Map(cpu.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of cpu.nodes) for (const c of n.children || []) parent.set(c, n.id);
  const frameOf = (cf) => {
    if (!cf.url || cf.functionName.startsWith('(')) return undefined;
    const key = `${cf.functionName}\0${cf.url}\0${cf.lineNumber}\0${cf.columnNumber}`;
    if (!frameIds.has(key)) {
      if (!resIds.has(cf.url)) resIds.set(cf.url, resources.push(cf.url) - 1);
      frameIds.set(
        key,
        frames.push({
          name: cf.functionName,
          resourceId: resIds.get(cf.url),
          line: cf.lineNumber + 1,
          column: cf.columnNumber + 1,
        }) - 1,
      );
    }
    return frameIds.get(key);
  };
  const stackFor = (id) => {
    if (stackOf.has(id)) return stackOf.get(id);
    const p = parent.has(id) ? stackFor(parent.get(id)) : undefined;
    const f = frameOf(byId.get(id).callFrame);
    const s =
      f === undefined ? p : stacks.push(p === undefined ? { frameId: f } : { frameId: f, parentId: p }) - 1;
    stackOf.set(id, s);
    return s;
  };
  const samples = [];
  let t = cpu.startTime;
  cpu.samples.forEach((id, i) => {
    t += cpu.timeDeltas[i];
    const s = stackFor(id);
    samples.push(s === undefined ? { timestamp: t / 1000 } : { timestamp: t / 1000, stackId: s });
  });
  // V8's timeDeltas can be negative (samples recorded out of order); the
  // W3C trace's samples are in time order.
  samples.sort((a, b) => a.timestamp - b.timestamp);
  return { resources, frames, stacks, samples };
}

export const fileUrl = (p) => pathToFileURL(p).href;
