// A call-heavy workload: about 2.8 million calls for fib(30), each entry a
// probe site once transformed.
export function fib(n) {
  if (n < 2) {
    return n;
  }
  return fib(n - 1) + fib(n - 2);
}
// fib(n) makes 2 * fib(n + 1) - 1 calls.
export function callCount(n) {
  let a = 0;
  let b = 1;
  for (let i = 0; i < n + 1; i++) {
    const t = a + b;
    a = b;
    b = t;
  }
  return 2 * a - 1;
}
