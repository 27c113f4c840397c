// A classic script: record.mjs's steps, through the drop-in's global.
window.result = import('./record.mjs').then(({ record }) =>
  record(webprof.ready, webprof.Profiler, webprof.probe),
);
