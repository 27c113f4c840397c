#include "base/status.h"

namespace webprof {

const char* StatusMessage(Status s) {
  switch (s) {
#define WEBPROF_STATUS_CASE(name, msg) \
  case Status::name:                   \
    return msg;
    WEBPROF_STATUS_LIST(WEBPROF_STATUS_CASE)
#undef WEBPROF_STATUS_CASE
    case Status::kCount:
      break;
  }
  return "unknown status";
}

const char* StatusName(Status s) {
  switch (s) {
#define WEBPROF_STATUS_NAME(name, msg) \
  case Status::name:                   \
    return &#name[1];
    WEBPROF_STATUS_LIST(WEBPROF_STATUS_NAME)
#undef WEBPROF_STATUS_NAME
    case Status::kCount:
      break;
  }
  return "Unknown";
}

}  // namespace webprof
