// A script a data-dense page adds after load (e2e/dense-dropin.spec.mjs):
// says whether the service worker rewrote it (its loop then has a check).
function lateLoop(n) {
  let x = 0;
  for (let i = 0; i < n; i++) x += i;
  return x;
}
window.lateRewritten = lateLoop.toString().includes('__wp$');
