// Whether the Wasm instance may still be used: the rule that a trap poisons
// it, on every path.
//
// A Wasm trap or an abort() leaves the core mid-call: no destructor runs and
// nothing returns, so whatever that call was changing may be half written.
// Every entry from JS therefore opens an Entry and closes it on return. An
// entry that finds the previous one still open knows that call never
// returned: the instance is poisoned from then on and every later entry —
// the per-sample and per-probe hot paths included — is refused without
// touching any state; the glue turns a refusal into a WebprofError (or, at
// a sampling site the page did not call, records it). The glue also poisons
// the instance itself when it sees a trap or abort first (Poison()).
// The core never calls back into JS, so between two calls no entry is open:
// an open entry seen from JS (usable() false) is a call that trapped.
//
// Cost on a hot path: one load, compare and store at entry, one store at
// return (the slow case, refusal or an armed test trap, is out of line).
#pragma once

#include <cstdint>

namespace webprof::boundary {

class Health {
 public:
  enum class State : int32_t {
    kIdle,       // no call open: the next entry may run
    kInCall,     // a call is running (seen between calls: it trapped)
    kTrapArmed,  // test hook: the next entry traps (ArmTrap)
    kPoisoned,   // for good: every entry is refused
  };
  using TrapFn = void (*)();

  // Opens an entry: true when the call may run; false when the instance is
  // poisoned, or poisons it now because an earlier call never returned.
  bool Enter() {
    if (state_ == State::kIdle) {
      state_ = State::kInCall;
      return true;
    }
    return EnterSlow();
  }
  // Closes the entry Enter() opened (only after it returned true).
  void Leave() { state_ = State::kIdle; }
  // The glue saw a trap or abort the core could not see.
  void Poison() { state_ = State::kPoisoned; }
  // Test hook (wp_debug_trap): the next entry calls `trap`, as a bug in
  // that call would trap. In Wasm `trap` does not return; if it does
  // (native tests) the call runs with its entry open.
  void ArmTrap(TrapFn trap) {
    if (state_ != State::kIdle) return;
    trap_ = trap;
    state_ = State::kTrapArmed;
  }

  // Whether the next entry may run (asked between calls, from JS).
  bool usable() const {
    return state_ == State::kIdle || state_ == State::kTrapArmed;
  }
  State state() const { return state_; }

 private:
  bool EnterSlow();

  State state_ = State::kIdle;
  TrapFn trap_ = nullptr;
};

// Opens an entry for the scope of one call from JS; check it before running
// (`Entry e(health); if (!e) return <refused>;`).
class Entry {
 public:
  explicit Entry(Health& h) : health_(h), open_(h.Enter()) {}
  ~Entry() {
    if (open_) health_.Leave();
  }
  Entry(const Entry&) = delete;
  Entry& operator=(const Entry&) = delete;
  explicit operator bool() const { return open_; }

 private:
  Health& health_;
  bool open_;
};

}  // namespace webprof::boundary
