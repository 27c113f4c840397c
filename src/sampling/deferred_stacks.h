// Samples taken now whose stack text arrives later (the polyfill's deferred
// formatting).
//
// Most of a polyfill sample's cost is turning the captured frames into text:
// V8 captures the structured frames eagerly in Error.captureStackTrace but
// formats Error.stack only when it is first read, and SpiderMonkey keeps
// SavedFrames the same way. So the JS sampler takes the sample at once —
// every rule about it (state, timestamp order, the buffer limit and the one
// kBufferFull) is Session::TakeSample's, exactly as for any sample — and
// hands the text over later, oldest capture first. This class remembers
// which sessions kept each such sample and at which index, and sets the
// stack when the text arrives. Interning happens then, in capture order, so
// ids come out as if each text had been parsed when it was captured.
//
// Ownership: entries point at Sessions owned elsewhere; whoever destroys a
// Session calls Forget() first (the Wasm binding does so in the Session
// wrapper's destructor).
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "base/status.h"
#include "sampling/session_set.h"
#include "sampling/stack_sampler.h"
#include "trace/session.h"

namespace webprof {

class DeferredStacks {
 public:
  // Takes a sample without stack at `timestamp_ms` in each of
  // sessions[0..n), outcomes in results[i] as Session::TakeSample. The
  // samples kept (kOk) become one pending capture, the newest. Returns how
  // many were kept: 0 means no capture is pending for this call.
  size_t Take(double timestamp_ms, Session* const* sessions, size_t n,
              Status* results);
  // n samples of one capture: due[j] in the attached sessions of `set` its
  // mask selects, in order, each kept or refused by Session::TakeSample (the
  // buffer may fill mid-way: kBufferFull once, kStopped after).
  // set.results() as a batch (session_set.h). The samples kept, in any
  // session, become one pending capture. Returns how many were kept.
  size_t TakeMany(const DueSample* due, size_t n, SessionSet& set);

  // Captures whose text has not arrived yet.
  size_t pending() const { return next_ - oldest_; }

  // The text of the oldest pending capture: parses it with `sampler` and sets
  // the stack of each of its samples (none when the text cannot be parsed or
  // shows nothing visible). kUnclassifiedScript leaves the capture pending:
  // the caller classifies the scripts and calls again. Returns the parse
  // status; with nothing pending, kOk and no effect.
  Status Resolve(StackSampler& sampler, std::string_view text,
                 StackFormat format = StackFormat::kAuto);
  // Resolves the oldest pending capture without a stack (its samples keep
  // no stackId), e.g. when its scripts cannot be classified.
  void Skip();

  // Drops every pending sample of `session` (it is about to be destroyed).
  // Its captures stay counted: their texts still arrive, in order.
  void Forget(const Session* session);

 private:
  struct Entry {
    Session* session;
    uint32_t sample;   // index in the session's sample buffer
    uint32_t capture;  // capture number; entries are in capture order
  };
  // Take() without closing the capture: its samples join capture next_.
  size_t Add(double timestamp_ms, Session* const* sessions, size_t n,
             Status* results);
  // Pops the oldest capture's entries, calling fn(entry) for each.
  template <typename Fn>
  void PopOldest(Fn&& fn);
  // Frees the popped entries once none is pending.
  void ReclaimIfDrained();

  // Pending entries are entries_[head_..]: a vector with a moving front
  // instead of std::deque, whose block map and iterators were 1.2 KB gzip of
  // the page's .wasm. Popped entries are reclaimed when none is pending (the
  // common case: texts arrive before the next sample) or when they are half
  // of the vector.
  std::vector<Entry> entries_;
  size_t head_ = 0;
  uint32_t oldest_ = 0;  // captures [oldest_, next_) are pending
  uint32_t next_ = 0;
};

}  // namespace webprof
