// Types of `webprof/playwright`.
//
// Both Playwright packages are optional peers: a project has playwright-core (for `record`) or @playwright/test
// (for the fixture), perhaps not both. A missing one turns only the types that come from it into `any` instead of
// failing the project's library check.
// @ts-ignore -- optional peer
import type { Page, BrowserContext } from 'playwright-core';
// @ts-ignore -- optional peer
import type { TestType } from '@playwright/test';
import type { ProfilerTrace, AggrResult, MarkTimeline, TraceTimeline, TraceSummary } from '../webprof.js';
export { exportFormats, exportTrace, registerExportFormat, ready } from '../webprof.js';

export interface ProfileOptions {
  /** Sampling interval in ms (default 1). */
  sampleInterval?: number;
  /** Sample buffer size (default 1,000,000). */
  maxBufferSize?: number;
  /** Which sampler runs in the page (default 'auto'). */
  backend?: 'auto' | 'native' | 'polyfill';
  /** Serve documents with `Document-Policy: js-profiling` so Chromium's native sampler is allowed. */
  native?: boolean;
  /**
   * Pass every script the page loads from now on through the dense-sampling transform, so the
   * polyfill samples inside long synchronous code of pages nobody built for it.
   */
  dense?: boolean;
}

/** One document of a profile that followed the page across navigations. */
export interface ProfiledDocument {
  url: string;
  /** The document's performance.timeOrigin (Unix ms). */
  timeOrigin: number;
  /** Where its samples start on the trace's time base (ms after the first document's time origin). */
  offset: number;
  samples: number;
  backend: 'native' | 'devtools' | 'polyfill';
  sampleInterval: number;
}

export interface ProfileResult {
  trace: ProfilerTrace;
  probes: { aggregates: Map<string, AggrResult>; marks: MarkTimeline; traces: TraceTimeline } | null;
  /**
   * Which sampler ran: 'native' (Chromium's Profiler), 'devtools' (Chromium's DevTools sampler: native asked below
   * its 10 ms floor) or 'polyfill' ('gecko' for launchProfiledFirefox).
   */
  backend: 'native' | 'devtools' | 'polyfill';
  /**
   * How the polyfill's dense checks ran as the profile ended: 'ticker' (time-faithful: a Worker ticks shared memory)
   * or 'counter' (shares lean toward code with dense checks); null for the native sampler.
   */
  denseMode: 'ticker' | 'counter' | null;
  /** The sampler's interval in ms (also in summary.txt's first line and the trace's thread name). */
  sampleInterval: number;
  /** performance.now() in the page when the profile started. */
  startedAt: number;
  /** One file per export format (exportFormats(): trace.json, profile.cpuprofile, trace.pftrace, …) and summary.txt. */
  files: Record<string, ArrayBuffer>;
  summary: TraceSummary;
  /** The summary as text; also lists the workers, what was not rewritten and the page errors. */
  summaryText: string;
  /** The page's dedicated workers that were profiled (their scripts carry the agent). */
  workers: (ProfileResult & { url: string })[];
  /** What the route left as it was, and why (CSP hashes, SRI, non-JS MIME, transform status). */
  unsampled: { url: string; reason: string }[];
  /**
   * Why the samples have (almost) no JS stack and what to do, or null; also in summaryText, on `webprof record`'s
   * stderr, and (fixture) in the test's annotations and console.
   */
  diagnostic: string | null;
  /** Uncaught errors the page threw while webprof watched it. */
  pageErrors: { name: string; message: string; stack: string }[];
  /**
   * The documents the profile went through when the page navigated while it ran ([] when it stayed in one); the
   * trace spans them on one time base, ms from the first document's time origin (`offset`: where each starts).
   */
  documents: ProfiledDocument[];
  /**
   * What could not be collected, one sentence each: a document whose profile did not arrive before it left, the last
   * document's when its stop failed or the page was closed or crashed (the documents before it are still in the
   * result). The fixture also says them in the test's annotations and console.
   */
  problems: string[];
  /** Writes the files into dir; resolves to their paths. */
  save(dir: string): Promise<string[]>;
}

/**
 * The Chromium switch that lets pages share memory with a Worker without being cross-origin isolated
 * (`--enable-blink-features=SharedArrayBufferUnrestrictedAccessAllowed`): the polyfill's checks then run in ticker
 * mode, time-faithful. The fixture and `record` add it; for a browser you launch, pass `withSharedMemory(args)`.
 */
export const SHARED_MEMORY_ARG: string;
/** `args` with SHARED_MEMORY_ARG added (merged into an `--enable-blink-features` switch already there). */
export function withSharedMemory(args?: string[]): string[];
/** Makes webprof available in every frame of the page/context before page scripts run. */
export function install(
  target: Page | BrowserContext,
  options?: { native?: boolean; dense?: boolean; autoStart?: ProfileOptions },
): Promise<void>;
/** Passes every script and document (inline scripts) the page loads through the dense-sampling transform. */
export function transformScripts(target: Page | BrowserContext): Promise<void>;
/** Serves every document with `Document-Policy: js-profiling`. */
export function grantNativeProfiler(target: Page | BrowserContext): Promise<void>;
/** Collects the page's uncaught errors into the results' `pageErrors`. */
export function watchPageErrors(page: Page): { name: string; message: string; stack: string }[];
export function startProfile(page: Page, options?: ProfileOptions): Promise<void>;
export function stopProfile(page: Page): Promise<ProfileResult>;
/**
 * Profiles `page` while `actions` runs. When `actions` throws, the profile is stopped and `profile` rejects with
 * that error (not with a stop that failed after it, e.g. because the action closed the page).
 */
export function profile(
  page: Page,
  actions: () => Promise<void>,
  options?: ProfileOptions,
): Promise<ProfileResult>;

export interface WebprofFixture {
  results: ProfileResult[];
  profile(actions: () => Promise<void>, options?: ProfileOptions): Promise<ProfileResult>;
  /**
   * Stops the whole-test profile (with `webprofProfile`) now, attaches and returns it. Rejects with a `webprof:` error
   * naming the page when nothing could be collected (its stop failed, the page was closed). Without this call the
   * fixture stops it after the test; what it cannot collect then is said in the annotations and console, not thrown.
   */
  stop(): Promise<ProfileResult>;
}
/** What `webprof record` takes (camelCased flags; defaults as in its usage). */
export interface RecordOptions {
  url: string;
  out?: string;
  seconds?: number;
  untilSelector?: string | null;
  script?: string | null;
  sampleInterval?: number;
  backend?: 'auto' | 'native' | 'polyfill';
  native?: boolean;
  dense?: boolean;
  /**
   * Let pages share memory with a Worker (Chromium's switch, no page change), so the polyfill's checks run in ticker
   * mode, time-faithful (default true; `--no-ticker`).
   */
  ticker?: boolean;
  /** A Chromium executable, 'webkit', or 'firefox' (Firefox ESR with its own Gecko profiler). */
  browser?: string;
  timeoutMs?: number;
  /** `webprof record --open` only (main()): open the flame chart afterwards. */
  open?: boolean;
}
/**
 * `webprof record` as a function: profiles `url` in a new headless Chromium and writes the files into `out`, with
 * report.html (summary and flame graph, one file) and, when speedscope is installed, viewer/ (its built app with the
 * profile); `viewerUrl` is that viewer's file:// URL, or null.
 */
export function record(
  options: RecordOptions,
  log?: (line: string) => void,
): Promise<ProfileResult & { viewerUrl: string | null }>;

/** What withWebprof() adds to a Playwright `test`: the `webprof` fixture and its options (with webprofTicker). */
export interface WebprofFixtures {
  webprof: WebprofFixture;
  /** Profile every test from its first page script on, with these options (default null: only webprof.profile()). */
  webprofProfile: ProfileOptions | null;
  /** Rewrite what pages load for dense sampling (default true; a native webprofProfile turns it off). */
  webprofDense: boolean;
}
/** withWebprof()'s option per worker process (like the browser it configures). */
export interface WebprofWorkerFixtures {
  /**
   * Start Chromium with shared memory allowed (`--enable-blink-features=SharedArrayBufferUnrestrictedAccessAllowed`,
   * no page change), so the polyfill's checks run in ticker mode: samples land where time is spent (default true).
   */
  webprofTicker: boolean;
}
/**
 * Extends a Playwright `test` with the `webprof` fixture and its options `webprofProfile`, `webprofDense` and
 * `webprofTicker` (Chromium launched with shared memory allowed, per worker process). The
 * result is `base.extend<WebprofFixtures>(…)`: a `TestType` whose test arguments include WebprofFixtures, so `test.use({ webprofProfile: … })` and `({ webprof }) => …` type-check.
 */
export function withWebprof<T extends {}, W extends {}>(
  base: TestType<T, W>,
): TestType<T & WebprofFixtures, W & WebprofWorkerFixtures>;

/** What Firefox's Gecko profile gave: the trace and where it came from. */
export interface GeckoImport {
  trace: ProfilerTrace;
  /** The Gecko profiler's interval (meta.interval), ms. */
  sampleInterval: number;
  pid: number;
  tid: number;
  threadName: string;
  processName: string;
  /** The thread's samples in the whole profile (the trace keeps the window's). */
  threadSamples: number;
  /** Unix ms of the trace's timestamp 0. */
  timeOrigin: number;
  truncated: boolean;
}
/**
 * A Gecko profile JSON (MOZ_PROFILER_SHUTDOWN's file) into webprof's trace, by the core's importer: the
 * content-process main thread showing `pageUrl`, samples between `windowStart` and `windowEnd` (Unix ms),
 * JS frames only (native and label frames give their time to the page function that called them).
 * Throws a WebprofError (code 'MalformedProfile' or 'NoProfileThread') saying what is wrong.
 */
export function importGeckoProfile(
  profile: string | Uint8Array | ArrayBuffer,
  options?: {
    pageUrl?: string;
    windowStart?: number;
    windowEnd?: number;
    timeOrigin?: number;
    maxBufferSize?: number;
  },
): GeckoImport;
/**
 * Launches Firefox ESR (puppeteer-core, WebDriver BiDi) with its Gecko profiler on from startup. `finish()`
 * closes it, imports the profile it writes and resolves to a result like `profile()`'s with backend 'gecko'.
 */
export function launchProfiledFirefox(options?: {
  executablePath?: string;
  /** Gecko's sampling interval, ms (default 1). */
  interval?: number;
  headless?: boolean;
  timeoutMs?: number;
}): Promise<{
  /** puppeteer-core's Browser. */
  browser: import('puppeteer-core').Browser;
  profilePath: string;
  finish(window?: { pageUrl?: string; windowStart?: number; windowEnd?: number }): Promise<
    Omit<ProfileResult, 'backend'> & {
      /** Firefox's own sampler. */
      backend: 'gecko';
      gecko: {
        pid: number;
        tid: number;
        threadName: string;
        processName: string;
        threadSamples: number;
        timeOrigin: number;
      };
    }
  >;
}>;
