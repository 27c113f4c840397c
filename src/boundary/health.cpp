#include "boundary/health.h"

namespace webprof::boundary {

bool Health::EnterSlow() {
  if (state_ == State::kTrapArmed) {
    state_ = State::kInCall;
    TrapFn trap = trap_;
    trap_ = nullptr;
    if (trap) trap();
    return true;
  }
  state_ = State::kPoisoned;
  return false;
}

}  // namespace webprof::boundary
