// The page's worker script, run unchanged behind webprof's bootstrap: on
// {run: ms} it works for that long (with sampling points) and answers done.
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
  f.label = 'worker work';
  return spin(ms);
}
self.addEventListener('message', function (ev) {
  if (ev.data && ev.data.run) postMessage({ done: work(ev.data.run) });
});
