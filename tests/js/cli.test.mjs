// `webprof record` against a page that was never touched by webprof, and
// its error cases: each prints one clear line and exits non-zero.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startStaticServer } from '../../e2e/server.mjs';
import { serveRecordPages } from '../support/record-pages.mjs';
import { webprofCli } from '../support/spawn.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const bin = join(root, 'dist', 'webprof-cli.mjs');
const pages = serveRecordPages();

function webprof(...args) {
  // spawnSync blocks this process, and with it this process's server: only
  // for cases that need no page from this server (the others: webprofAsync).
  return spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8', timeout: 120_000 });
}

// The CLI's stderr lines without the browser's own log lines (they start with '[').
const errorLines = (r) =>
  r.stderr
    .trim()
    .split('\n')
    .filter((l) => !l.startsWith('['));

const webprofAsync = (...args) => webprofCli(args);

test('records an untouched page into all three formats', async () => {
  const out = mkdtempSync(join(tmpdir(), 'webprof-record-'));
  const r = await webprofAsync('record', `${pages.base}/untouched.html`, '--seconds', '1.5', '--out', out);
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stderr, /loading http/);
  assert.match(r.stderr, /profiling/);
  assert.match(r.stderr, /samples \((native|polyfill) sampler\)/);

  const chrome = JSON.parse(readFileSync(join(out, 'trace.json'), 'utf8'));
  assert.ok(Array.isArray(chrome.traceEvents));
  const nodes = chrome.traceEvents
    .filter((e) => e.ph === 'P' && e.args?.data?.cpuProfile?.nodes)
    .flatMap((e) => e.args.data.cpuProfile.nodes);
  const chromeNames = new Set(nodes.map((n) => n.callFrame.functionName));
  assert.ok(chromeNames.has('crunchPrimesUntouched'), [...chromeNames].join(','));

  const cpu = JSON.parse(readFileSync(join(out, 'profile.cpuprofile'), 'utf8'));
  assert.ok(cpu.samples.length > 0);
  assert.equal(cpu.samples.length, cpu.timeDeltas.length);
  const cpuNames = new Set(cpu.nodes.map((n) => n.callFrame.functionName));
  assert.ok(cpuNames.has('crunchPrimesUntouched'));
  assert.ok(cpu.nodes.some((n) => n.callFrame.url.endsWith('/untouched.js')));

  const pftrace = readFileSync(join(out, 'trace.pftrace'));
  assert.ok(pftrace.length > 0);
  const decoded = spawnSync('protoc', ['--decode_raw'], { input: pftrace, encoding: 'utf8' });
  assert.equal(decoded.status, 0, decoded.stderr);
  assert.match(decoded.stdout, /crunchPrimesUntouched/);

  const summary = readFileSync(join(out, 'summary.txt'), 'utf8');
  assert.match(summary, /crunchPrimesUntouched/);
});

// The share of a recording's samples whose innermost frame is `name`, from
// its first such sample on (before it, the page was still loading).
function selfShare(dir, name) {
  const cpu = JSON.parse(readFileSync(join(dir, 'profile.cpuprofile'), 'utf8'));
  const byId = new Map(cpu.nodes.map((n) => [n.id, n]));
  const hot = cpu.samples.map((id) => byId.get(id).callFrame.functionName === name);
  const from = hot.indexOf(true);
  return from < 0 ? 0 : hot.slice(from).filter(Boolean).length / (hot.length - from);
}

// An untouched page whose script runs a 40 ms hot loop every 45 ms, inline,
// as an external classic script, as a module reached by import(), and in a
// dedicated worker: the polyfill's recording (scripts rewritten as they
// load) attributes most of its time to the hot function, as Chromium's own
// sampler does (--native, same run).
test('the page scripts of every kind are sampled inside their hot loop, like --native', async () => {
  const cases = [
    ['hot-inline.html', 'hotInline', []],
    ['hot-inline.html', 'hotInline', ['--native']],
    ['hot-external.html', 'hotExternal', []],
    ['hot-module.html', 'hotModule', []],
    ['hot-worker.html', 'hotExternal', [], 'worker-1'],
  ];
  const shares = [];
  // Two at a time: each is one browser.
  for (let i = 0; i < cases.length; i += 2) {
    const batch = cases.slice(i, i + 2).map(async ([page, hot, extra, sub]) => {
      const out = mkdtempSync(join(tmpdir(), 'webprof-hot-'));
      const r = await webprofAsync(
        'record',
        `${pages.base}/${page}`,
        '--seconds',
        '0.8',
        '--out',
        out,
        ...extra,
      );
      assert.equal(r.status, 0, r.stderr);
      assert.doesNotMatch(r.stderr, /page error|not rewritten/, r.stderr);
      return [`${page} ${extra.join(' ')}`.trim(), selfShare(sub ? join(out, sub) : out, hot)];
    });
    shares.push(...(await Promise.all(batch)));
  }
  const share = Object.fromEntries(shares);
  const summary = JSON.stringify(share);
  // The hot loop runs ~89 % of the time; native's self share (the rest is
  // its `now` frames, which the polyfill does not report) is ~45-65 %.
  assert.ok(share['hot-inline.html --native'] > 0.3, summary);
  for (const [name, v] of shares) assert.ok(v > 0.35, `${name}: ${summary}`);
  assert.ok(share['hot-inline.html'] >= share['hot-inline.html --native'] - 0.1, summary);
});

test('a page whose scripts use object-literal arrow bodies, class expressions and unbraced loops records with no page error', async () => {
  const out = mkdtempSync(join(tmpdir(), 'webprof-shapes-'));
  const r = await webprofAsync('record', `${pages.base}/shapes.html`, '--seconds', '0.8', '--out', out);
  assert.equal(r.status, 0, r.stderr);
  assert.doesNotMatch(r.stderr, /page error|not rewritten/, r.stderr);
  // The unbraced loop body is sampled inside.
  assert.match(r.stdout, /unbracedHot/);
});

test('a busy page recorded with --no-dense gets a note saying why there are no stacks and what to do', async () => {
  const out = mkdtempSync(join(tmpdir(), 'webprof-sparse-'));
  const r = await webprofAsync(
    'record',
    `${pages.base}/busy-noclock.html`,
    '--seconds',
    '0.8',
    '--no-dense',
    '--out',
    out,
  );
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stderr, /note: \d+ of \d+ samples have no JS stack/);
  assert.match(r.stderr, /Document-Policy: js-profiling/);
  assert.match(readFileSync(join(out, 'summary.txt'), 'utf8'), /data-dense/);
  // Rewritten (the default), the same page is sampled inside: no note.
  const dense = await webprofAsync(
    'record',
    `${pages.base}/busy-noclock.html`,
    '--seconds',
    '0.8',
    '--out',
    out,
  );
  assert.equal(dense.status, 0, dense.stderr);
  assert.doesNotMatch(dense.stderr, /samples have no JS stack/);
  assert.match(dense.stdout, /busyNoClock/);
});

test('a page error while scripts are rewritten is printed, and a SyntaxError fails the recording', async () => {
  const out = mkdtempSync(join(tmpdir(), 'webprof-broken-'));
  const r = await webprofAsync('record', `${pages.base}/broken.html`, '--seconds', '0.5', '--out', out);
  assert.equal(r.status, 1, r.stderr);
  assert.match(r.stderr, /page error: SyntaxError/);
  assert.match(r.stderr, /page error: Error: thrown by the page/);
  assert.match(r.stderr, /rerun with --no-dense/);
  assert.match(
    r.stderr,
    /not rewritten for dense sampling: .*data\.txt\.js\?type=text\/plain: its MIME type is not JavaScript/,
  );
  const summary = readFileSync(join(out, 'summary.txt'), 'utf8');
  assert.match(summary, /page errors \(2\)/);
  assert.match(summary, /not rewritten for dense sampling/);
});

test('--until-selector stops when the element appears, after a user script', async () => {
  const out = mkdtempSync(join(tmpdir(), 'webprof-record-'));
  const script = join(out, 'actions.mjs');
  writeFileSync(script, "export default async ({ page }) => { await page.click('#go'); };\n");
  const r = await webprofAsync(
    'record',
    `${pages.base}/untouched.html`,
    '--until-selector',
    '#done',
    '--seconds',
    '20',
    '--script',
    script,
    '--out',
    out,
  );
  assert.equal(r.status, 0, r.stderr);
  assert.doesNotMatch(r.stderr, /did not appear/);
  const cpu = JSON.parse(readFileSync(join(out, 'profile.cpuprofile'), 'utf8'));
  assert.ok(cpu.nodes.some((n) => n.callFrame.functionName === 'onGoClicked'));
});

test('an unreachable URL prints one line and exits non-zero', async () => {
  const out = mkdtempSync(join(tmpdir(), 'webprof-record-'));
  // A port that was just free: nothing listens there.
  const probe = await startStaticServer({ port: 0 });
  const port = probe.address().port;
  await new Promise((r) => probe.close(r));
  const url = `http://127.0.0.1:${port}/nothing`;
  const r = webprof('record', url, '--out', out, '--seconds', '1');
  assert.equal(r.status, 1);
  const lines = errorLines(r);
  assert.equal(lines.length, 1, r.stderr);
  assert.equal(
    lines[0],
    `webprof record: cannot load ${url}: page.goto: net::ERR_CONNECTION_REFUSED at ${url}`,
  );
});

test('a browser that does not start prints one line and exits non-zero', () => {
  const out = mkdtempSync(join(tmpdir(), 'webprof-record-'));
  let r = webprof('record', 'http://127.0.0.1:9/', '--out', out, '--browser', '/nonexistent/chromium');
  assert.equal(r.status, 1);
  assert.equal(
    r.stderr.trim(),
    'webprof record: cannot start the browser: /nonexistent/chromium is not an executable file',
  );
  r = webprof('record', 'http://127.0.0.1:9/', '--out', out, '--browser', '/bin/false');
  assert.equal(r.status, 1);
  const lines = errorLines(r);
  assert.equal(lines.length, 1, r.stderr);
  assert.match(lines[0], /^webprof record: cannot start the browser \/bin\/false: /);
});

test('an output folder that cannot be written prints one line and exits non-zero', () => {
  const r = webprof('record', 'http://127.0.0.1:9/', '--out', '/etc/passwd/profile');
  assert.equal(r.status, 1);
  assert.equal(
    r.stderr.trim(),
    'webprof record: cannot write to the output folder /etc/passwd/profile: ENOTDIR',
  );
});

test('bad usage prints one line and exits 2', () => {
  for (const args of [
    [],
    ['record'],
    ['record', 'not a url'],
    ['record', 'http://x/', '--seconds', 'abc'],
    ['frobnicate'],
  ]) {
    const r = webprof(...args);
    assert.equal(r.status, 2, args.join(' '));
    assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
    assert.match(r.stderr, /^webprof record: .*\(see webprof record --help\)/);
  }
});

test('webprof --help, webprof record --help and --version print and exit 0', () => {
  const help = webprof('--help');
  assert.equal(help.status, 0);
  assert.match(help.stdout, /webprof record <url>/);
  assert.match(help.stdout, /--version/);
  const recordHelp = webprof('record', '--help');
  assert.equal(recordHelp.status, 0);
  assert.match(recordHelp.stdout, /--sample-interval MS/);
  const version = webprof('--version');
  assert.equal(version.status, 0);
  assert.equal(version.stdout.trim(), JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).version);
});

test('without playwright-core (an optional peer dependency) record says how to get it', () => {
  // The bin alone, where no node_modules can be found.
  const dir = mkdtempSync(join(tmpdir(), 'webprof-nopw-'));
  copyFileSync(bin, join(dir, 'webprof-cli.mjs'));
  const r = spawnSync(process.execPath, [join(dir, 'webprof-cli.mjs'), 'record', 'http://127.0.0.1:9/'], {
    encoding: 'utf8',
    timeout: 60_000,
  });
  rmSync(dir, { recursive: true, force: true });
  assert.equal(r.status, 1, r.stderr);
  assert.match(r.stderr, /^webprof record: needs playwright-core: npm install --save-dev playwright-core$/m);
});

test('every option the usage lists is accepted', () => {
  // Without a URL each run stops at "missing <url>", after reading the options.
  const r = webprof(
    'record',
    '--no-dense',
    '--no-ticker',
    '--native',
    '--out',
    'x',
    '--sample-interval',
    '2',
    '--open',
  );
  assert.equal(r.status, 2);
  assert.match(r.stderr, /missing <url>/);
});

// The polyfill's share of parse() (one JSON.parse call) against scan() (a
// check per character) in a recording of e2e/pages/record/mixed.html?run,
// from the first sample of either on.
function parseShare(dir) {
  const cpu = JSON.parse(readFileSync(join(dir, 'profile.cpuprofile'), 'utf8'));
  const byId = new Map(cpu.nodes.map((n) => [n.id, n.callFrame.functionName]));
  const n = { scan: 0, parse: 0 };
  for (const id of cpu.samples) if (byId.get(id) in n) n[byId.get(id)]++;
  return { parse: n.parse / (n.parse + n.scan || 1), samples: n.parse + n.scan };
}

// Chromium is started with shared memory allowed, so the checks run in
// ticker mode (time-faithful): parse(), ~60-70 % of the two functions' time
// by the page's own clock (e2e/playwright-ticker.spec.mjs measures it), gets
// samples beside scan()'s per-character checks; --no-ticker keeps counter
// mode (parse() then gets almost none). summary.txt says which mode ran.
test('record samples in ticker mode by default, --no-ticker in counter mode, and summary.txt says which', async () => {
  const runs = await Promise.all(
    [[], ['--no-ticker']].map(async (extra) => {
      const out = mkdtempSync(join(tmpdir(), 'webprof-ticker-'));
      const r = await webprofAsync(
        'record',
        `${pages.base}/mixed.html?run`,
        '--seconds',
        '1.5',
        '--out',
        out,
        ...extra,
      );
      assert.equal(r.status, 0, r.stderr);
      return { summary: readFileSync(join(out, 'summary.txt'), 'utf8'), ...parseShare(out) };
    }),
  );
  const [ticker, counter] = runs;
  const all = JSON.stringify(runs.map(({ parse, samples }) => ({ parse, samples })));
  assert.match(ticker.summary, /sampler: webprof polyfill \(ticker mode\), every 1 ms/);
  assert.match(counter.summary, /sampler: webprof polyfill \(counter mode\), every 1 ms/);
  assert.ok(ticker.samples > 50, all);
  assert.ok(ticker.parse > 0.35 && ticker.parse < 0.9, all);
});
