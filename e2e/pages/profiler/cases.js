// Functions whose frames the Profiler e2e tests look for. Every function
// spends `ms` in spin(), whose loop calls a webprof-wrapped function (a probe
// site) so the polyfill samples inside it; the native sampler needs no help.
/* global spinStep */
function spin(ms) {
  const end = performance.now() + ms;
  let x = 0;
  while (performance.now() < end) x = window.spinStep(x);
  return x;
}
class Shape {
  area(ms) {
    return spin(ms);
  }
  get x() {
    return spin(window.caseMs);
  }
  set x(ms) {
    spin(ms);
  }
}
function declared(ms) {
  return spin(ms);
}
var namedExpr = function namedExpression(ms) {
  return spin(ms);
};
var anonExpr = [
  function (ms) {
    return spin(ms);
  },
][0];
function runFrameCases(ms) {
  window.caseMs = ms;
  const s = new Shape();
  s.area(ms);
  void s.x;
  s.x = ms;
  declared(ms);
  namedExpr(ms);
  anonExpr(ms);
}
