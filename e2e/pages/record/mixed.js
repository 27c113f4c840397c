// Where checks are dense and where time is spent differ: scan() walks a
// string character by character (rewritten: a check per character), parse()
// is one JSON.parse call (a check before and after, none inside). The page
// measures each one's time itself (`truth`). In counter mode the samples go
// where the checks are (scan); the ticker gives each its share of the time.
const TEXT = JSON.stringify(
  Array.from({ length: 3000 }, (_, i) => ({
    id: i,
    name: `item ${i}`,
    tags: ['a', 'b', 'c'],
    on: i % 2 === 0,
  })),
);

function scan(s) {
  let colons = 0;
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) === 58) colons++;
  return colons;
}

function parse(s) {
  return JSON.parse(s).length;
}

/** Alternates scan() and parse() for `ms`; returns the time each took. */
function runMixed(ms) {
  const truth = { scan: 0, parse: 0 };
  let sink = 0;
  const end = performance.now() + ms;
  while (performance.now() < end) {
    const t0 = performance.now();
    sink += scan(TEXT);
    const t1 = performance.now();
    sink += parse(TEXT);
    truth.scan += t1 - t0;
    truth.parse += performance.now() - t1;
  }
  return { truth, sink };
}

/**
 * One parse() of `copies` times TEXT: a single long stretch without a check
 * (e2e/playwright-ticker.spec.mjs). Returns when it started and ended.
 */
function parseLong(copies) {
  const big = `[${Array(copies).fill(TEXT).join(',')}]`;
  const t0 = performance.now();
  const n = parse(big);
  return { t0, t1: performance.now(), n };
}
