// Test helper: a V8 Error.stack text from frames given innermost first.
#pragma once

#include <initializer_list>
#include <string>

namespace webprof {

inline std::string V8(std::initializer_list<std::string> lines) {
  std::string s = "Error";
  for (const std::string& l : lines) s += "\n    at " + l;
  return s;
}

}  // namespace webprof
