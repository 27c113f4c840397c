// Every function kind the scanner must locate, each burning CPU so the
// native Profiler samples it. Positions in this file are asserted by tests.
function spin(ms) { const end = performance.now() + ms; let x = 0; while (performance.now() < end) x++; return x; }
function decl(a, b) { return spin(40); }
const expr = function (a) { return spin(40); };
const named = function inner() { return spin(40); };
const arrowParen = (a, b) => spin(40);
const arrowBare = a => spin(40);
const arrowAsyncBare = async a => spin(40);
const arrowAsync = async (a) => spin(40);
function* gen() { yield spin(40); }
async function asyncDecl() { return spin(40); }
class K {
  constructor(v) { this.v = v; spin(40); }
  method(x) { return spin(40); }
  get prop() { return spin(40); }
  set prop(v) { spin(40); }
  static stat() { return spin(40); }
  *genMethod() { yield spin(40); }
  async asyncMethod() { return spin(40); }
  ['comp' + 'uted']() { return spin(40); }
}
class Plain {}
const obj = { m() { return spin(40); }, f: function () { return spin(40); }, a: () => spin(40) };
function outer() {
  function nested() { return spin(40); }
  return nested();
}
window.runKinds = function runKinds() {
  decl(); expr(); named(); arrowParen(); arrowBare(1); arrowAsyncBare(1); arrowAsync(1);
  gen().next(); asyncDecl();
  const k = new K(1); k.method(); k.prop; k.prop = 2; K.stat(); k.genMethod().next(); k.asyncMethod(); k.computed();
  new Plain(); obj.m(); obj.f(); obj.a(); outer();
  [1].map(function () { return spin(40); });
};
