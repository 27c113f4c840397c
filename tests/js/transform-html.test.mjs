// The dense-sampling transform of whole HTML documents (js/transform/html.mjs):
// inline scripts rewritten in place with lines and the columns before each
// check kept; what it must leave alone, and what it reports.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { transformHtmlForSampling } from '../../dist/webprof.mjs';

const C = 'if(__wp$on&&__wp$f&&--__wp$f[0]<__wp$f[1])delete __wp$p.s;';
// The light check before the `}` of a body that calls nothing.
const L = ';if(__wp$on&&__wp$f&&__wp$f[1]>0)delete __wp$p.s;';

test('inline classic and module scripts are rewritten in place; lines and earlier columns stay', async () => {
  const html =
    '<!doctype html>\n<p>é</p>\n<script>function hot(n) {\n  for (;;) { break; }\n}</script>\n' +
    '<script type="module">export const f = () => { for (;;) { return 1; } };</script>\n' +
    '<script type="application/json">{"a": {"b": 1}}</script>\n' +
    '<!-- <script>function no() {}</script> -->\n';
  const r = await transformHtmlForSampling(html);
  assert.equal(r.scripts, 2);
  // Entry and loop checks, and a light check before each body's `}` (neither
  // calls anything: no full exit check; a body with no loop either would get
  // no entry check).
  assert.equal(r.sites, 6);
  const inLines = html.split('\n');
  const outLines = r.code.split('\n');
  assert.equal(outLines.length, inLines.length);
  outLines.forEach((line, i) => {
    // Every output line is its input line with checks inserted after `{`s
    // and before `}`s.
    assert.equal(line.split(L).join('').split(C).join(''), inLines[i]);
    const first = [line.indexOf(C), line.indexOf(L)].filter((x) => x >= 0).sort((a, b) => a - b)[0] ?? -1;
    if (first >= 0) assert.equal(line.slice(0, first), inLines[i].slice(0, first));
  });
  assert.match(outLines[2], /^<script>function hot\(n\) \{if\(/);
  assert.ok(r.code.includes('{"a": {"b": 1}}'), 'data blocks are not scripts');
  assert.ok(r.code.includes('function no() {}</script> -->'), 'comments are not scripts');
  assert.deepEqual(r.skipped, []);
});

test('a CSP that allows inline scripts by hash leaves them all as they are, and says so', async () => {
  const html =
    '<meta http-equiv="Content-Security-Policy" content="script-src \'sha256-abc=\'">\n' +
    '<script>function a() { return 1; }</script>';
  const r = await transformHtmlForSampling(html);
  assert.equal(r.code, html);
  assert.deepEqual(r.skipped, [
    { line: 2, reason: 'the Content-Security-Policy allows inline scripts by hash' },
  ]);
  const h = await transformHtmlForSampling('<script>function a() { return 1; }</script>', {
    csp: "script-src 'sha384-xyz'",
  });
  assert.equal(h.scripts, 0);
  // A nonce-based policy allows any content under the nonce: rewritten.
  const n = await transformHtmlForSampling('<script nonce="r4nd">function a() { return 1; }</script>', {
    csp: "script-src 'nonce-r4nd'",
  });
  assert.equal(n.scripts, 1);
});

test('external scripts: integrity ones are listed, and those before `from` (the drop-in tag)', async () => {
  const html =
    '<script src="early.js"></script><script>function before() { return 0; }</script>\n' +
    '<script src="webprof.js" data-dense></script>\n' +
    '<script src="lib.js?a=1&amp;b=2" integrity="sha384-q"></script><script>function after() { return g(1); }</script>';
  // As the service worker finds it: just after the tag's data-dense attribute.
  const from = html.indexOf(' data-dense') + ' data-dense'.length;
  const r = await transformHtmlForSampling(html, { from });
  assert.deepEqual(r.integrity, ['lib.js?a=1&b=2']);
  assert.deepEqual(r.before, ['early.js']);
  assert.equal(r.scripts, 1);
  assert.deepEqual(r.skipped, [{ line: 1, reason: 'before webprof' }]);
  assert.ok(r.code.includes('function before() { return 0; }'));
  assert.ok(r.code.includes(`function after() {${C}`));
});

test('an inline script the transform cannot read is left as it is and reported with its line', async () => {
  const html = '<p>\n</p>\n<script>function ( {</script>';
  const r = await transformHtmlForSampling(html);
  assert.equal(r.code, html);
  assert.equal(r.skipped.length, 1);
  assert.equal(r.skipped[0].line, 3);
  assert.match(r.skipped[0].reason, /the transform cannot read it/);
});
