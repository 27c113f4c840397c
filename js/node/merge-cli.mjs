// `webprof merge <file>... --out DIR`: adds up profiles of any format webprof
// reads into one and writes it in every export format (js/merge/merge.mjs,
// the core's merger). Progress and errors go to stderr ("webprof merge: …",
// exit 2 for bad usage, 1 when an input cannot be merged); the totals to stdout.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { ProfileMerger, ready, WebprofError } from '../merge/merge.mjs';

export const MERGE_USAGE = `usage: webprof merge <file or folder>... [options]
  --out DIR            output folder (default ./webprof-merged): one file per export format
                       (trace.json, profile.cpuprofile, trace.pftrace, profile.pb.gz, …)
  --source-maps DIR    source maps to apply first: DIR/NAME.map maps any script URL ending in /NAME
  --skip-invalid       report inputs that cannot be read and merge the others (default: stop)
Inputs: W3C ProfilerTrace JSON, Chrome trace JSON (DevTools, chrome://tracing), .cpuprofile,
Firefox Gecko profile JSON, each gzipped or not, in any mix; a folder adds every file in it.`;

class UsageError extends Error {}

function parseArgs(argv) {
  const o = { out: 'webprof-merged', sourceMaps: null, skipInvalid: false, inputs: [] };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const val = () => {
      if (i + 1 >= argv.length) throw new UsageError(`${a} needs a value`);
      return argv[++i];
    };
    if (a === '--out') o.out = val();
    else if (a === '--source-maps') o.sourceMaps = val();
    else if (a === '--skip-invalid') o.skipInvalid = true;
    else if (a === '-h' || a === '--help') throw new UsageError('');
    else if (a.startsWith('--')) throw new UsageError(`unknown option ${a}`);
    else o.inputs.push(a);
  }
  if (!o.inputs.length) throw new UsageError('no input files');
  return o;
}

// Folders stand for the files in them (sorted, not recursive).
function expand(inputs) {
  const files = [];
  for (const p of inputs) {
    let st;
    try {
      st = statSync(p);
    } catch {
      throw new UsageError(`no such file or folder: ${p}`);
    }
    if (!st.isDirectory()) files.push(p);
    else for (const f of readdirSync(p).sort()) if (statSync(join(p, f)).isFile()) files.push(join(p, f));
  }
  return files;
}

function mapsIn(dir) {
  const maps = {};
  let names;
  try {
    names = readdirSync(dir);
  } catch {
    throw new UsageError(`cannot read the source-map folder ${dir}`);
  }
  for (const f of names.sort()) if (f.endsWith('.map')) maps[basename(f, '.map')] = join(dir, f);
  return maps;
}

export async function mergeMain(argv, out = process.stdout, err = process.stderr) {
  let o;
  try {
    o = parseArgs(argv);
    o.files = expand(o.inputs);
    o.maps = o.sourceMaps ? mapsIn(o.sourceMaps) : {};
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    if (!e.message) {
      out.write(MERGE_USAGE + '\n');
      return 0;
    }
    err.write(`webprof merge: ${e.message} (see webprof merge --help)\n`);
    return 2;
  }
  await ready;
  const merger = new ProfileMerger();
  try {
    for (const [script, path] of Object.entries(o.maps)) merger.addSourceMap(script, readFileSync(path));
    let skipped = 0;
    for (const file of o.files) {
      try {
        merger.add(file);
      } catch (e) {
        if (!(e instanceof WebprofError)) throw e;
        err.write(`webprof merge: ${e.message.replace(/^webprof: /, '')}\n`);
        if (!o.skipInvalid) return 1;
        skipped++;
      }
    }
    const t = merger.totals();
    if (t.inputs === 0) {
      err.write('webprof merge: nothing to merge (every input was skipped)\n');
      return 1;
    }
    const written = await merger.writeFiles(resolve(o.out));
    out.write(
      `merged ${t.inputs} input${t.inputs === 1 ? '' : 's'} (${t.profiles} profiles${skipped ? `, ${skipped} skipped` : ''}): ` +
        `${t.samples} samples, ${(t.timeNs / 1e6).toFixed(1)} ms, ${t.stacks} stacks, ${t.frames} functions\n` +
        `wrote ${written.join(', ')}\n`,
    );
    return 0;
  } catch (e) {
    if (!(e instanceof WebprofError)) throw e;
    err.write(`webprof merge: ${e.message.replace(/^webprof: /, '')}\n`);
    return 1;
  } finally {
    merger.dispose();
  }
}
