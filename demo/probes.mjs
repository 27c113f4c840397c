// The probes the demo instruments its workload with: webprof's own
// (start/end/aggrStart/aggrEnd/traceStart/traceEnd/mark, seed 004), imported
// from the package. end() hands the window's results to a reporter; the demo
// takes them as a return value instead.
import { start, end, aggrStart, aggrEnd, traceStart, traceEnd, mark } from 'webprof';

/** Closes the window; returns {aggregates, marks, traces} (null if none was open). */
function endWindow() {
  let report = null;
  end((aggregates, marks, traces) => {
    report = { aggregates, marks, traces };
  });
  return report;
}

export const probes = { start, end: endWindow, aggrStart, aggrEnd, traceStart, traceEnd, mark };
