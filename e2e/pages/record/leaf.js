// A leaf holds most of its caller's time: weigh() is a chain of operators
// (no call, no loop, so the transform gives it no entry check, only light
// exit checks), called once per character by walk(), whose loop has the
// full check. A sampler that interrupts sees weigh() on top most of the
// time; the ticker's light exit checks take the ticks that fall inside it.
const TEXT = 'the quick brown fox jumps over the lazy dog; '.repeat(2000);

function weigh(c, h) {
  h = (h ^ c) + ((h << 5) | 0);
  h = (h ^ (h >>> 13)) + (c << 3);
  h = (h ^ (h << 7)) - (h >>> 3);
  h = (h + c * 7) ^ (h >>> 11);
  h = (h ^ (h << 9)) + (h >>> 5);
  h = (h - (c << 2)) ^ (h >>> 17);
  return h | 0;
}

function walk(s) {
  let h = 0;
  for (let i = 0; i < s.length; i++) h = weigh(s.charCodeAt(i), h);
  return h;
}

/** walk() over TEXT again and again for `ms`. */
function runLeaf(ms) {
  let sink = 0;
  const end = performance.now() + ms;
  while (performance.now() < end) sink ^= walk(TEXT);
  return sink;
}
