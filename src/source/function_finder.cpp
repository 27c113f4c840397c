// FindFunctions: the structural pass of the source scanner over tokens.
//
// One forward pass; at each token it asks "does a function definition start
// here?" for the four syntactic shapes: the `function` keyword, `=>`, a
// method-shaped `key(...) {` directly inside a class body or object literal,
// and `class` (whose constructor takes the class name). Brace kinds (block,
// object literal, class body, function body) are decided lazily and cached:
// a brace's kind depends only on tokens before it and on marks made by
// definitions that start before it, which an in-order pass has already seen.
#include <iterator>
#include <string>
#include <string_view>
#include <unordered_map>

#include "source/source_scanner.h"

namespace webprof {
namespace {

enum class Brace : uint8_t { kUnknown, kBlock, kObject, kClass, kBody };

constexpr const char* kObjectAfterNames[] = {
    "return", "typeof", "yield", "await", "in",   "of",
    "new",    "delete", "void",  "throw", "case", "instanceof"};
// Control keywords that take `(...) {` and are never method names in blocks.
constexpr const char* kControl[] = {"if",    "for",  "while",   "switch",
                                    "catch", "with", "function"};

class Finder : TokenReader {
 public:
  Finder(std::string_view s, const std::vector<Token>& t,
         std::vector<FunctionDefinition>* out)
      : TokenReader(s, t), out_(*out), brace_(t.size(), Brace::kUnknown) {}

  void Run() {
    for (uint32_t i = 0; i < t_.size(); ++i) {
      if (IsName(i, "function")) {
        KeywordFunction(i);
      } else if (IsPunct(i, "=>")) {
        Arrow(i);
      } else if (IsPunct(i, "(")) {
        Method(i);
      } else if (IsName(i, "class") && !IsPunct(i - 1, ".")) {
        Class(i);
      }
    }
  }

 private:
  bool IsOneOf(uint32_t i, const char* const* words, size_t n) const {
    for (size_t k = 0; k < n; ++k)
      if (IsName(i, words[k])) return true;
    return false;
  }

  // A definition from `def` to `last`; `body` is its body's `{` or kNone
  // (an arrow's expression body, which may end in a `}` of its own).
  void Add(std::string name, uint32_t def, uint32_t last, uint32_t body) {
    FunctionDefinition f;
    f.name = std::move(name);
    f.definition = t_[def].start;
    f.begin = t_[def].start;
    f.end = t_[last].stop;
    f.body_brace = body;
    if (body != Token::kNone) {
      // Past the directive prologue (strings, and the `;` the transform
      // may add after one), where the transform puts its check.
      uint32_t k = body + 1;
      while (IsKind(k, TokenKind::kString) || IsPunct(k, ";")) ++k;
      uint32_t jsc = 0;
      uint32_t call = EntryCheckCall(k, &jsc);
      if (call != Token::kNone) {
        f.entry_check = t_[call].start;
        f.entry_check_paren = t_[jsc].start;
      }
    }
    out_.push_back(std::move(f));
  }
  // The transform's check as tokens, in the forms it has emitted: its slots
  // a module-level `var` tested first (`if(__wp$on&&__wp$f&&--__wp$f[0]<
  // __wp$f[1])delete __wp$p.s;`, now: cheaper than the import, and never a
  // TDZ error), its slow path a `delete` on the runtime's Proxy (no call
  // site whose first run V8 deoptimizes on), a call with the threshold
  // slot, guarded against 0 and unguarded (older bundles). A stack captured in
  // the slow path reports the check at `call` (V8, SpiderMonkey: the callee's
  // name, or `delete`) or at `jsc` (JavaScriptCore: the call's `(`, or the `;`
  // after `__wp$p.s`).
  struct CheckForm {
    const char* const* tokens;
    uint32_t size;
    uint32_t call;  // the index of "__wp$s" or "delete"
    uint32_t jsc;
  };
  static constexpr const char* kVar[] = {
      "if", "(",      "__wp$on", "&&", "__wp$f", "&&", "--", "__wp$f",
      "[",  "0",      "]",       "<",  "__wp$f", "[",  "1",  "]",
      ")",  "delete", "__wp$p",  ".",  "s",      ";"};
  static constexpr const char* kDelete[] = {
      "if",     "(", "__wp$on", "&&", "--", "__wp$f", "[",      "0", "]", "<",
      "__wp$f", "[", "1",       "]",  ")",  "delete", "__wp$p", ".", "s", ";"};
  static constexpr const char* kThreshold[] = {
      "if",     "(", "__wp$on", "&&", "--", "__wp$f", "[", "0", "]", "<",
      "__wp$f", "[", "1",       "]",  ")",  "__wp$s", "(", ")", ";"};
  static constexpr const char* kGuarded[] = {
      "if", "(", "__wp$on", "&&", "--",     "__wp$f", "[", "0",
      "]",  "<", "0",       ")",  "__wp$s", "(",      ")", ";"};
  static constexpr const char* kUnguarded[] = {
      "if", "(", "--", "__wp$f", "[", "0", "]",
      "<",  "0", ")",  "__wp$s", "(", ")", ";"};
  // The index of the check's slow-path token if a check starts at `k`
  // (and in *jsc where JavaScriptCore places it).
  uint32_t EntryCheckCall(uint32_t k, uint32_t* jsc) const {
    static constexpr CheckForm kForms[] = {
        {kVar, std::size(kVar), 17, 21},
        {kDelete, std::size(kDelete), 15, 19},
        {kThreshold, std::size(kThreshold), 15, 16},
        {kGuarded, std::size(kGuarded), 12, 13},
        {kUnguarded, std::size(kUnguarded), 10, 11}};
    for (const CheckForm& form : kForms) {
      uint32_t j = 0;
      std::string_view slots;  // the slots' name as this check spells it
      while (j < form.size && SameToken(Text(k + j), form.tokens[j], &slots))
        ++j;
      if (j == form.size) {
        *jsc = k + form.jsc;
        return k + form.call;
      }
    }
    return Token::kNone;
  }
  // Whether `text` is the check's token `want`. The slots `__wp$f` are a
  // module-level `var` in each transformed module, so a bundler that puts
  // modules in one scope renames them (Rollup `__wp$f$2`, esbuild
  // `__wp$f2`): any name `__wp$f` followed by digits and `$` is the slots,
  // the same one throughout a check (`*slots`, empty until the first).
  static bool SameToken(std::string_view text, std::string_view want,
                        std::string_view* slots) {
    constexpr std::string_view kSlots = "__wp$f";
    if (want != kSlots) return text == want;
    if (!slots->empty()) return text == *slots;
    if (text.substr(0, kSlots.size()) != kSlots) return false;
    for (char c : text.substr(kSlots.size()))
      if (c != '$' && (c < '0' || c > '9')) return false;
    *slots = text;
    return true;
  }
  // The body `{` at `open`, marked so later queries see a function body.
  bool Body(uint32_t open) {
    if (!IsPunct(open, "{")) return false;
    brace_[open] = Brace::kBody;
    return true;
  }

  void KeywordFunction(uint32_t i) {
    if (IsPunct(i - 1, ".") || IsPunct(i + 1, ":")) return;
    uint32_t j = i + 1;
    if (IsPunct(j, "*")) ++j;
    std::string name;
    bool named = IsKind(j, TokenKind::kName) && !IsPunct(j, "(");
    if (named) name = std::string(Text(j++));
    if (!IsPunct(j, "(")) return;
    uint32_t close = t_[j].match;
    if (close == Token::kNone || !Body(close + 1)) return;
    if (!named) name = Infer(IsName(i - 1, "async") ? i - 1 : i);
    Add(std::move(name), j, t_[close + 1].match, close + 1);
  }

  void Arrow(uint32_t i) {
    if (i == 0) return;
    uint32_t p = i - 1, first;
    if (IsPunct(p, ")")) {
      first = t_[p].match;
    } else if (IsKind(p, TokenKind::kName)) {
      first = p;
    } else {
      return;
    }
    uint32_t def = first;
    if (first > 0 && IsName(first - 1, "async") && !t_[first].newline_before)
      def = first - 1;
    uint32_t last, body = Token::kNone;
    if (Body(i + 1)) {
      body = i + 1;
      last = t_[body].match;
    } else {
      last = ExpressionEnd(i + 1);
      if (last == Token::kNone) return;
    }
    Add(Infer(def), def, last, body);
  }

  // The last token of an arrow's expression body starting at `k`: it ends
  // before `,` `;` or a closer at its own level, or where a new statement
  // starts on a new line (automatic semicolon insertion, approximately).
  uint32_t ExpressionEnd(uint32_t k) const {
    if (k >= t_.size()) return Token::kNone;
    uint32_t last = Token::kNone;
    while (k < t_.size()) {
      const Token& tok = t_[k];
      if (tok.closes || IsPunct(k, ",") || IsPunct(k, ";")) break;
      if (last != Token::kNone && tok.newline_before && EndsValue(last) &&
          StartsStatement(k))
        break;
      if (tok.opens) {
        uint32_t m = k;
        while (t_[m].opens && t_[m].match != Token::kNone && t_[m].match > m)
          m = t_[m].match;
        last = m;
        k = m + 1;
      } else {
        last = k++;
      }
    }
    return last;
  }
  bool EndsValue(uint32_t i) const {
    const Token& t = t_[i];
    if (t.kind == TokenKind::kPunct)
      return IsPunct(i, ")") || IsPunct(i, "]") || IsPunct(i, "}");
    return true;
  }
  bool StartsStatement(uint32_t i) const {
    const Token& t = t_[i];
    if (t.kind != TokenKind::kName) return false;
    std::string_view w = Text(i);
    return !(w == "in" || w == "of" || w == "instanceof");
  }

  // `key(...) {` directly inside a class body or an object literal.
  void Method(uint32_t i) {
    uint32_t parent = t_[i].parent;
    if (parent == Token::kNone || !IsPunct(parent, "{")) return;
    Brace kind = KindOf(parent);
    if (kind != Brace::kClass && kind != Brace::kObject) return;
    uint32_t close = t_[i].match;
    if (close == Token::kNone || !IsPunct(close + 1, "{") || i == 0) return;
    uint32_t key = i - 1;
    std::string name;
    bool computed = IsPunct(key, "]");
    if (computed) {
      key = t_[key].match;
    } else if (IsKind(key, TokenKind::kName) ||
               IsKind(key, TokenKind::kNumber)) {
      if (IsOneOf(key, kControl, sizeof(kControl) / sizeof(*kControl)) &&
          kind != Brace::kClass && IsControlUse(key))
        return;
      name = std::string(Text(key));
    } else if (IsKind(key, TokenKind::kString)) {
      std::string_view q = Text(key);
      name = std::string(q.substr(1, q.size() - 2));
    } else {
      return;
    }
    // Modifiers before the key, then what may precede a member.
    uint32_t m = key;
    std::string prefix;
    while (m > 0 && (IsName(m - 1, "get") || IsName(m - 1, "set") ||
                     IsName(m - 1, "static") || IsName(m - 1, "async") ||
                     IsPunct(m - 1, "*"))) {
      if (IsName(m - 1, "get") || IsName(m - 1, "set"))
        prefix = std::string(Text(m - 1)) + " ";
      --m;
    }
    if (m == 0) return;
    uint32_t before = m - 1;
    bool member_start = before == parent || IsPunct(before, ",") ||
                        IsPunct(before, ";") || IsPunct(before, "}") ||
                        (kind == Brace::kClass && t_[m].newline_before);
    if (!member_start) return;
    Body(close + 1);
    if (computed) {
      name.clear();
    } else if (kind == Brace::kClass && name == "constructor" &&
               prefix.empty()) {
      name = class_name_[parent];
    } else {
      name = prefix + name;
    }
    Add(std::move(name), i, t_[close + 1].match, close + 1);
  }
  // `if (x) {` inside a brace we took for an object literal is a block.
  bool IsControlUse(uint32_t key) const {
    return !(IsPunct(key - 1, "{") || IsPunct(key - 1, ","));
  }

  void Class(uint32_t i) {
    if (IsPunct(i + 1, ":")) return;
    std::string name;
    uint32_t j = i + 1;
    if (IsKind(j, TokenKind::kName) && !IsName(j, "extends"))
      name = std::string(Text(j));
    else
      name = Infer(i);
    // The class body is the first `{` at this level after the heritage.
    for (; j < t_.size(); ++j) {
      if (IsPunct(j, "{")) {
        brace_[j] = Brace::kClass;
        class_name_[j] = name;
        return;
      }
      if (t_[j].opens && t_[j].match != Token::kNone && t_[j].match > j)
        j = t_[j].match;
      else if (t_[j].closes || IsPunct(j, ";"))
        return;
    }
  }

  // ECMAScript's NamedEvaluation as far as tokens show it: `x = f`,
  // `{ x: f }`, `export default f`; anything else is anonymous.
  std::string Infer(uint32_t start) const {
    if (start == 0) return std::string();
    uint32_t p = start - 1;
    if ((IsPunct(p, "=") || IsPunct(p, "||=") || IsPunct(p, "&&=") ||
         IsPunct(p, "?\?=")) &&
        p > 0 && IsKind(p - 1, TokenKind::kName) &&
        !(p > 1 && (IsPunct(p - 2, ".") || IsPunct(p - 2, "?."))))
      return std::string(Text(p - 1));
    if (IsPunct(p, ":") && p > 0) {
      uint32_t parent = t_[p].parent;
      if (parent == Token::kNone || !IsPunct(parent, "{") ||
          KindOf(parent) != Brace::kObject)
        return std::string();
      uint32_t k = p - 1;
      if (!(k == parent + 1 || IsPunct(k - 1, ","))) return std::string();
      if (IsKind(k, TokenKind::kName) || IsKind(k, TokenKind::kNumber))
        return std::string(Text(k));
      if (IsKind(k, TokenKind::kString)) {
        std::string_view q = Text(k);
        return std::string(q.substr(1, q.size() - 2));
      }
      return std::string();
    }
    if (IsName(p, "default") && p > 0 && IsName(p - 1, "export"))
      return "default";
    return std::string();
  }

  // Object literal or block, from the token before the `{`.
  Brace KindOf(uint32_t open) const {
    if (brace_[open] != Brace::kUnknown) return brace_[open];
    Brace k = Brace::kBlock;
    if (open > 0) {
      uint32_t p = open - 1;
      const Token& t = t_[p];
      if (t.kind == TokenKind::kTemplate) {
        k = Brace::kObject;
      } else if (t.kind == TokenKind::kName) {
        if (IsOneOf(p, kObjectAfterNames,
                    sizeof(kObjectAfterNames) / sizeof(*kObjectAfterNames)))
          k = Brace::kObject;
      } else if (t.kind == TokenKind::kPunct) {
        std::string_view w = Text(p);
        if (w == ":") {
          k = IsCaseLabel(p) || IsLabel(p) ? Brace::kBlock : Brace::kObject;
        } else if (w == "{") {
          // `{{` nests a block in a block; only an object can hold an object
          // (and only as a syntax error), so the outer brace decides.
          k = KindOf(p) == Brace::kObject ? Brace::kObject : Brace::kBlock;
        } else if (!(w == ")" || w == "]" || w == "}" || w == ";" ||
                     w == "=>")) {
          k = Brace::kObject;
        }
      }
    }
    brace_[open] = k;
    return k;
  }
  // `name:` at the start of a statement in a block or body: a label.
  bool IsLabel(uint32_t colon) const {
    if (colon == 0 || !IsKind(colon - 1, TokenKind::kName)) return false;
    uint32_t parent = t_[colon].parent;
    if (parent != Token::kNone &&
        (!IsPunct(parent, "{") || KindOf(parent) == Brace::kObject ||
         KindOf(parent) == Brace::kClass))
      return false;
    uint32_t name = colon - 1;
    if (name == 0) return true;
    uint32_t b = name - 1;
    return IsPunct(b, ";") || IsPunct(b, "{") || IsPunct(b, "}") ||
           IsPunct(b, ")") || IsName(b, "else") || IsName(b, "do") ||
           (t_[name].newline_before && EndsValue(b) && !IsPunct(b, "++") &&
            !IsPunct(b, "--"));
  }
  // Walks back from a `:` over its statement looking for `case`/`default`.
  bool IsCaseLabel(uint32_t colon) const {
    uint32_t k = colon;
    for (int steps = 0; k > 0 && steps < 64; ++steps) {
      --k;
      if (t_[k].closes && t_[k].match != Token::kNone && t_[k].match < k) {
        k = t_[k].match;
        continue;
      }
      if (IsName(k, "case") || IsName(k, "default")) return true;
      if (t_[k].opens || IsPunct(k, ";") || IsPunct(k, "}") ||
          IsPunct(k, ",") || IsPunct(k, "?"))
        return false;
    }
    return false;
  }

  std::vector<FunctionDefinition>& out_;
  mutable std::vector<Brace> brace_;  // per token; only `{` used
  std::unordered_map<uint32_t, std::string> class_name_;  // class-body `{`
};

}  // namespace

Status FindFunctions(std::string_view source, const std::vector<Token>& tokens,
                     std::vector<FunctionDefinition>* out) {
  Finder(source, tokens, out).Run();
  return Status::kOk;
}

}  // namespace webprof
