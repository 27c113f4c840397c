// A picture of a recording that needs no network: `report.html`, one
// self-contained file (summary table and an icicle flame graph drawn as plain
// HTML boxes, no script), and `viewer/`, speedscope's built app from npm
// (an optional peer dependency) with the profile beside it, loaded through
// speedscope's own `#localProfilePath=` (a script it injects: works from
// file://, as speedscope's CLI does; the path is absolute, so viewer/ opens where it was written). Written by `webprof record`, opened by
// `webprof record --open`.
import { spawn } from 'node:child_process';
import { cp, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';

/** speedscope's built app (`dist/release/`) if the package is installed, else null. */
export function speedscopeRelease() {
  try {
    const pkg = createRequire(join(process.cwd(), 'noop.js')).resolve('speedscope/package.json');
    return join(dirname(pkg), 'dist', 'release');
  } catch {
    try {
      return join(
        dirname(createRequire(import.meta.url).resolve('speedscope/package.json')),
        'dist',
        'release',
      );
    } catch {
      return null;
    }
  }
}

// The call tree of a W3C ProfilerTrace: one node per (parent, frame), with the
// samples whose stack passes through it.
function callTree(trace) {
  const root = { name: '(all)', total: 0, children: new Map() };
  const paths = new Map(); // stackId -> frame ids, root first
  const pathOf = (id) => {
    let p = paths.get(id);
    if (!p) {
      const s = trace.stacks[id];
      p = s.parentId === undefined ? [s.frameId] : [...pathOf(s.parentId), s.frameId];
      paths.set(id, p);
    }
    return p;
  };
  for (const sample of trace.samples) {
    if (sample.stackId === undefined) continue;
    root.total++;
    let node = root;
    for (const frameId of pathOf(sample.stackId)) {
      let child = node.children.get(frameId);
      if (!child) {
        const f = trace.frames[frameId];
        const url = f.resourceId === undefined ? '' : trace.resources[f.resourceId];
        const where = url ? ` ${url}${f.line ? `:${f.line}` : ''}` : '';
        child = { name: f.name || '(anonymous)', where, total: 0, children: new Map() };
        node.children.set(frameId, child);
      }
      child.total++;
      node = child;
    }
  }
  return root;
}

const escape = (s) =>
  String(s).replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]);

const ROW = 20; // px per stack level

// Boxes narrower than 0.2 % of the recording are left out (unreadable).
function boxes(node, depth, left, total, out) {
  let x = left;
  for (const child of [...node.children.values()].sort((a, b) => b.total - a.total)) {
    const width = child.total / total;
    if (width >= 0.002) {
      const pct = ((100 * child.total) / total).toFixed(1);
      out.push(
        `<div class="box" style="left:${(100 * x).toFixed(3)}%;width:${(100 * width).toFixed(3)}%;top:${depth * ROW}px"` +
          ` title="${escape(`${child.name}${child.where} — ${child.total} samples (${pct} %)`)}">${escape(child.name)}</div>`,
      );
      boxes(child, depth + 1, x, total, out);
    }
    x += width;
  }
  return out;
}
const depthOf = (node) => 1 + Math.max(0, ...[...node.children.values()].map(depthOf));

/** report.html: the summary and a flame graph (callers on top), in one file with no script. */
export function reportHtml(result, title) {
  const tree = callTree(result.trace);
  const html = boxes(tree, 0, 0, Math.max(1, tree.total), []);
  const height = (depthOf(tree) - 1) * ROW;
  return `<!doctype html>
<html lang="en">
<meta charset="utf-8" />
<title>webprof: ${escape(title)}</title>
<style>
  body { font: 13px system-ui, sans-serif; margin: 1rem; }
  #flame { position: relative; height: ${height}px; border: 1px solid #ccc; overflow: hidden; }
  .box { position: absolute; height: ${ROW - 2}px; line-height: ${ROW - 2}px; overflow: hidden; white-space: nowrap;
    text-overflow: ellipsis; font-size: 11px; padding: 0 2px; box-sizing: border-box; border: 1px solid #fff;
    background: #f4a460; }
  pre { background: #f6f6f6; padding: 0.5rem; overflow: auto; }
</style>
<h1>webprof: ${escape(title)}</h1>
<p>${result.trace.samples.length} samples (${escape(result.backend)} sampler), ${tree.total} with a JS stack.
Flame graph: callers above callees, width = share of the samples (hover for the script and line).</p>
<div id="flame">
${html.join('\n')}
</div>
<h2>Summary</h2>
<pre>${escape(result.summaryText)}</pre>
</html>
`;
}

/**
 * Writes report.html into `out` and, when speedscope is installed, `viewer/`
 * with the profile (profile.cpuprofile's bytes). Returns the paths, and the
 * viewer's URL (file://) or null.
 */
export async function writeReport(out, result, title) {
  const written = [join(out, 'report.html')];
  await writeFile(written[0], reportHtml(result, title));
  const release = speedscopeRelease();
  const cpuprofile = result.files['profile.cpuprofile'];
  if (!release || !cpuprofile) return { written, viewerUrl: null };
  const viewer = join(out, 'viewer');
  await cp(release, viewer, { recursive: true });
  const b64 = Buffer.from(cpuprofile).toString('base64');
  await writeFile(
    join(viewer, 'profile.js'),
    `speedscope.loadFileFromBase64(${JSON.stringify(title + '.cpuprofile')}, ${JSON.stringify(b64)});\n`,
  );
  written.push(join(viewer, 'index.html'));
  // speedscope loads `file:///${localProfilePath}`: the absolute path.
  const script = join(viewer, 'profile.js');
  const url = `${pathToFileURL(join(viewer, 'index.html')).href}#localProfilePath=${encodeURIComponent(script)}`;
  return { written, viewerUrl: url };
}

/** Opens `url` in the desktop's browser (xdg-open / open / start); false when none could be started. */
export function openInBrowser(url) {
  const [cmd, args] =
    process.platform === 'darwin'
      ? ['open', [url]]
      : process.platform === 'win32'
        ? ['cmd', ['/c', 'start', '', url]]
        : ['xdg-open', [url]];
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { stdio: 'ignore', detached: true });
    child.on('error', () => resolve(false));
    child.on('spawn', () => {
      child.unref();
      resolve(true);
    });
  });
}
