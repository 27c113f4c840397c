// A tiny JSON DOM for tests: parses what the exporters wrote so round trips
// can be checked field by field. Validity itself is checked separately by
// IsValidJsonValue (strict); this parser trusts its input's grammar.
#pragma once

#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace webprof::testing {

struct Json {
  enum Kind { kNull, kBool, kNumber, kString, kArray, kObject } kind = kNull;
  double num = 0;
  bool b = false;
  std::string str;
  std::vector<Json> arr;
  std::vector<std::pair<std::string, Json>> obj;

  const Json& operator[](const std::string& k) const {
    static const Json kMissing;
    for (auto& kv : obj)
      if (kv.first == k) return kv.second;
    return kMissing;
  }
  const Json& operator[](size_t i) const { return arr.at(i); }
  bool has(const std::string& k) const {
    for (auto& kv : obj)
      if (kv.first == k) return true;
    return false;
  }
};

class JsonParser {
 public:
  explicit JsonParser(const std::string& s) : s_(s) {}
  Json Parse() {
    Json v = Value();
    return v;
  }

 private:
  void Ws() {
    while (i_ < s_.size() && std::strchr(" \t\r\n", s_[i_])) ++i_;
  }
  static void PutUtf8(unsigned cp, std::string* o) {
    if (cp < 0x80) {
      o->push_back(char(cp));
    } else if (cp < 0x800) {
      o->push_back(char(0xC0 | (cp >> 6)));
      o->push_back(char(0x80 | (cp & 63)));
    } else if (cp < 0x10000) {
      o->push_back(char(0xE0 | (cp >> 12)));
      o->push_back(char(0x80 | ((cp >> 6) & 63)));
      o->push_back(char(0x80 | (cp & 63)));
    } else {
      o->push_back(char(0xF0 | (cp >> 18)));
      o->push_back(char(0x80 | ((cp >> 12) & 63)));
      o->push_back(char(0x80 | ((cp >> 6) & 63)));
      o->push_back(char(0x80 | (cp & 63)));
    }
  }
  std::string Str() {
    std::string o;
    ++i_;
    while (s_[i_] != '"') {
      char c = s_[i_++];
      if (c != '\\') {
        o.push_back(c);
        continue;
      }
      char e = s_[i_++];
      switch (e) {
        case 'n':
          o.push_back('\n');
          break;
        case 't':
          o.push_back('\t');
          break;
        case 'r':
          o.push_back('\r');
          break;
        case 'b':
          o.push_back('\b');
          break;
        case 'f':
          o.push_back('\f');
          break;
        case 'u': {
          unsigned cp = std::strtoul(s_.substr(i_, 4).c_str(), nullptr, 16);
          i_ += 4;
          PutUtf8(cp, &o);
          break;
        }
        default:
          o.push_back(e);
      }
    }
    ++i_;
    return o;
  }
  Json Value() {
    Ws();
    Json v;
    char c = s_[i_];
    if (c == '{') {
      v.kind = Json::kObject;
      ++i_;
      Ws();
      if (s_[i_] == '}') {
        ++i_;
        return v;
      }
      for (;;) {
        Ws();
        std::string k = Str();
        Ws();
        ++i_;  // ':'
        v.obj.emplace_back(k, Value());
        Ws();
        if (s_[i_++] == '}') return v;
      }
    }
    if (c == '[') {
      v.kind = Json::kArray;
      ++i_;
      Ws();
      if (s_[i_] == ']') {
        ++i_;
        return v;
      }
      for (;;) {
        v.arr.push_back(Value());
        Ws();
        if (s_[i_++] == ']') return v;
      }
    }
    if (c == '"') {
      v.kind = Json::kString;
      v.str = Str();
      return v;
    }
    if (c == 't' || c == 'f') {
      v.kind = Json::kBool;
      v.b = c == 't';
      i_ += v.b ? 4 : 5;
      return v;
    }
    if (c == 'n') {
      i_ += 4;
      return v;
    }
    char* end;
    v.kind = Json::kNumber;
    v.num = std::strtod(s_.c_str() + i_, &end);
    i_ = static_cast<size_t>(end - s_.c_str());
    return v;
  }

  const std::string& s_;
  size_t i_ = 0;
};

inline Json ParseJson(const std::string& s) { return JsonParser(s).Parse(); }

}  // namespace webprof::testing

namespace webprof::testing {
// Decodes one quoted JSON string.
inline std::string ParseJsonString(const std::string& quoted) {
  return ParseJson(quoted).str;
}
}  // namespace webprof::testing
