// Records a probes window through `recorder` while the reporter was set
// through `reporter`: what that reporter sees, and how many Wasm modules the
// page instantiated (counted by the test's init script).
export async function exchange(reporter, recorder) {
  if (reporter.ready) await reporter.ready;
  let seen = null;
  reporter.setReporter((aggregates, marks) => {
    seen = { aggregates: [...aggregates.keys()], marks: marks.events.map((e) => e.name) };
  });
  recorder.start();
  for (let i = 0; i < 3; i++) recorder.aggrEnd(recorder.aggrStart('shared-probe'));
  recorder.mark('shared-mark');
  recorder.end();
  reporter.clearReporter();
  return { seen, instantiations: window.__wasmInstantiations };
}
