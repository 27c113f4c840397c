// The proposal's example program (seed 002): foo with a heavy loop, called
// from the top level at two call sites and from bar. A polyfill cannot
// interrupt running code, so the loop holds a sampling point (webprof.probe()).
function foo(n) {
  var a = 0;
  for (var i = 0; i < n; i++) {
    a += Math.sqrt(i);
    if ((i & 1023) === 0) webprof.probe();
  }
  return a;
}
function bar(n) {
  var s = 0;
  for (var i = 0; i < n; i++) s += foo(10000);
  return s;
}
var p = new webprof.RuntimeProfiler();
p.start();
var sink = foo(20000000); // call site line 19: 1 unit of work
sink += foo(40000000); // call site line 20: 2 units
sink += bar(2000); // bar -> foo: 1 unit
p.stop();
window.result = { results: p.results(), sink: sink };
