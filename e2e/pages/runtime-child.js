// Code of the iframe runtime: a loop with a sampling point, and a frame()
// annotation made by the iframe's own code while its parent profiles it.
function spin(ms) {
  var end = performance.now() + ms;
  var x = 0;
  while (performance.now() < end) {
    for (var i = 0; i < 1000; i++) x += i;
    webprof.probe();
  }
  return x;
}
function work(ms) {
  var f = new webprof.RuntimeProfiler().frame();
  f.label = 'child work';
  return spin(ms);
}
