// Whether this page load is profiled: decided once, at collectProfiles().
//
// `sampled: true|false` forces it (tests, a user who opted in). A `seed`
// (a session or user id) makes the decision a pure function of it, so one
// session is profiled on every load or on none, and a test can predict it:
// the seed's 32-bit FNV-1a hash, mixed by MurmurHash3's finaliser, read as a
// fraction in [0, 1), is compared with sampleRate. Without either,
// Math.random() decides. sampleRate outside [0, 1] is clamped; NaN is 0.

const encoder = new TextEncoder();

/** A seed's fixed fraction in [0, 1), uniform over seeds. */
export function seedFraction(seed) {
  let h = 0x811c9dc5;
  for (const byte of encoder.encode(String(seed))) h = Math.imul(h ^ byte, 0x01000193);
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return (h >>> 0) / 2 ** 32;
}

/** @param {{sampleRate?: number, seed?: unknown, sampled?: boolean}} options */
export function decideSampled({ sampleRate, seed, sampled }) {
  if (sampled === true || sampled === false) return sampled;
  const rate = Number(sampleRate);
  if (!(rate > 0)) return false;
  if (rate >= 1) return true;
  const u = seed === undefined || seed === null ? Math.random() : seedFraction(seed);
  return u < rate;
}
