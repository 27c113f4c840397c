// Side-by-side workload: every function kind, each running long enough for
// the native 10 ms sampler to see it. Built through the dense-sampling
// transform by e2e/fidelity.spec.mjs (positions are compared, never edited).
export function spin(ms) {
  const end = performance.now() + ms;
  let x = 0;
  while (performance.now() < end) {
    x++;
  }
  return x;
}
function decl(a, b) {
  return spin(12);
}
const expr = function (a) {
  return spin(12);
};
const named = function inner() {
  return spin(12);
};
const arrowParen = (a, b) => {
  return spin(12);
};
const arrowBare = a => spin(12);
const arrowAsyncBare = async a => spin(12);
const arrowAsync = async (a) => spin(12);
function* gen() {
  yield spin(12);
}
async function asyncDecl() {
  return spin(12);
}
class K {
  constructor(v) {
    this.v = v;
    spin(12);
  }
  method(x) {
    return spin(12);
  }
  get prop() {
    return spin(12);
  }
  set prop(v) {
    spin(12);
  }
  static stat() {
    return spin(12);
  }
  *genMethod() {
    yield spin(12);
  }
  async asyncMethod() {
    return spin(12);
  }
  ['comp' + 'uted']() {
    return spin(12);
  }
  #priv() {
    return spin(12);
  }
  callPriv() {
    return this.#priv();
  }
}
class Sub extends K {
  constructor() {
    super(2);
    spin(12);
  }
  method(x) {
    return super.method(x) + spin(12);
  }
}
const obj = {
  m() {
    return spin(12);
  },
  f: function () {
    return spin(12);
  },
  a: () => {
    return spin(12);
  },
  'quoted key': function () {
    return spin(12);
  },
};
function outer() {
  function nested() {
    return spin(12);
  }
  const deeper = () => {
    const deepest = function () {
      return nested();
    };
    return deepest();
  };
  return deeper();
}
function recurse(n) {
  if (n === 0) {
    return spin(12);
  }
  return recurse(n - 1);
}
const withTemplate = (s) => `${s}:${[1, 2].map((v) => { return spin(6) + v; }).join('/')}`;
const re = /[/(]{/g;
function afterRegex(a) {
  return a.replace(re, '') + spin(12);
}
export function runKinds() {
  decl();
  expr();
  named();
  arrowParen();
  arrowBare(1);
  arrowAsyncBare(1);
  arrowAsync(1);
  gen().next();
  asyncDecl();
  const k = new K(1);
  k.method();
  k.prop;
  k.prop = 2;
  K.stat();
  k.genMethod().next();
  k.asyncMethod();
  k.computed();
  k.callPriv();
  new Sub().method(1);
  obj.m();
  obj.f();
  obj.a();
  obj['quoted key']();
  outer();
  recurse(3);
  withTemplate('t');
  afterRegex('x');
  [1].forEach(function () {
    spin(12);
  });
}
