// A page's source maps, found at Profiler.stop() (webprof extension): for
// each script of the trace, a map given in the Profiler's `sourceMaps`
// option, else the one its response names — the `SourceMap` (or older
// `X-SourceMap`) header, else the last `//# sourceMappingURL=` comment
// (data: URLs included). Fetches go through the page's own fetch with
// `credentials: 'same-origin'`, so only same-origin and CORS-readable
// scripts and maps are read; an HTML document's maps are not looked for (an
// inline script's map would not match document positions). Nothing here may
// lose a trace: any failure leaves the frames as they were, and problems with
// one map are listed in `trace.symbolication.errors`.
import { symbolicate } from './symbolicate.mjs';

const COMMENT = /\/\/[#@][ \t]*sourceMappingURL=[ \t]*(\S+)[ \t]*(?:\*\/)?[ \t]*$/;

/** `option`: undefined (find maps), false (off) or {scriptUrl: map} (given; others found). */
export async function symbolicateInPage(trace, option) {
  if (option === false || typeof fetch !== 'function') return trace;
  try {
    const given = option ?? {};
    const maps = {};
    const mapUrls = {};
    const errors = [];
    await Promise.all(
      trace.resources.map(async (url) => {
        if (given[url] != null) {
          maps[url] = given[url];
          return;
        }
        if (!/^https?:/.test(url)) return;
        try {
          const found = await findMap(url);
          if (!found) return;
          maps[url] = found.text;
          mapUrls[url] = found.url;
        } catch (e) {
          errors.push({ resource: url, message: `webprof: source map of ${url}: ${e.message}` });
        }
      }),
    );
    if (!Object.keys(maps).length && !errors.length) return trace;
    const out = await symbolicate(trace, maps, { mapUrls });
    out.symbolication.errors.push(...errors);
    return out;
  } catch {
    return trace; // never worth a lost trace
  }
}

async function readable(url) {
  const r = await fetch(url, { credentials: 'same-origin' });
  if (r.type === 'opaque' || r.type === 'opaqueredirect')
    throw new Error('not readable (cross-origin without CORS)');
  if (!r.ok) throw new Error(`HTTP ${r.status}`);
  return r;
}

// {url, text} of the map `scriptUrl` names, or null when it names none.
async function findMap(scriptUrl) {
  let script;
  try {
    script = await readable(scriptUrl);
  } catch {
    return null; // a script webprof cannot read has no map it could read
  }
  let ref = script.headers.get('SourceMap') || script.headers.get('X-SourceMap');
  if (!ref) {
    if (/html/i.test(script.headers.get('content-type') || '')) return null;
    const text = await script.text();
    const at = text.lastIndexOf('sourceMappingURL=');
    if (at < 0) return null;
    const end = text.indexOf('\n', at);
    const m = COMMENT.exec(text.slice(text.lastIndexOf('\n', at) + 1, end < 0 ? undefined : end));
    if (!m) return null;
    ref = m[1];
  }
  // Thrown, so the trace's symbolication.errors says why.
  if (script.headers.get('X-Webprof-Rewritten'))
    throw new Error(
      "rewritten for sampling by webprof's route, so its columns are not the ones its map describes " +
        '(frames left as sampled; record with --no-dense or the native backend to map them)',
    );
  const url = new URL(ref, scriptUrl).href;
  const map = await readable(url);
  return { url, text: await map.text() };
}
