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
// Class bodies are strict code, where JavaScriptCore makes `return f()` a
// proper tail call (ES2015): the caller's frame is gone from the stack. The
// members keep their frame by not returning the call directly.
class Shape {
  area(ms) {
    const r = spin(ms);
    return r;
  }
  get x() {
    const r = spin(window.caseMs);
    return r;
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
// V8's Error.stack names an anonymous function after an inferred name (the
// variable or property it was assigned to) or the name it is called
// through; only a function with neither shows as anonymous. The function
// returned here has none and is called straight away.
function makeAnonymous() {
  return function (ms) {
    return spin(ms);
  };
}
function runFrameCases(ms) {
  window.caseMs = ms;
  const s = new Shape();
  s.area(ms);
  void s.x;
  s.x = ms;
  declared(ms);
  namedExpr(ms);
  makeAnonymous()(ms);
}
