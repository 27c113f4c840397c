// mixed.js's scan() and parse() as the transform rewrites them (checks at
// entry, loop, exit: the probe reads their lines); runMixed logs the phases.
const TEXT = JSON.stringify(
  Array.from({ length: 3000 }, (_, i) => ({ id: i, name: `item ${i}`, tags: ['a', 'b', 'c'], on: i % 2 === 0 })),
);
function scan(s) {if(--__wp$f[0]<__wp$f[1])__wp$s();try{
  let colons = 0;
  for (let i = 0; i < s.length; i++) {if(--__wp$f[0]<__wp$f[1])__wp$s();if (s.charCodeAt(i) === 58) colons++;}
  return colons;
}finally{if(--__wp$f[0]<__wp$f[1])__wp$s();}}
function parse(s) {if(--__wp$f[0]<__wp$f[1])__wp$s();try{
  return JSON.parse(s).length;
}finally{if(--__wp$f[0]<__wp$f[1])__wp$s();}}
// Lines of the checks inside scan: 8, 10; inside parse: 13 (the probe's SITES).
function runMixed(ms, phases) {
  const truth = { scan: 0, parse: 0 };
  let sink = 0;
  const end = performance.now() + ms;
  while (performance.now() < end) {
    const t0 = performance.now();
    sink += scan(TEXT);
    const t1 = performance.now();
    sink += parse(TEXT);
    const t2 = performance.now();
    phases.push(t0, t1, t2);
    truth.scan += t1 - t0;
    truth.parse += t2 - t1;
  }
  return { truth, sink };
}
