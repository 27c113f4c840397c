// The results() call tree of seed 002: its shape for the proposal's example,
// the invariant samples = selfCount + sum(children.samples) on random call
// patterns (checked against a naive path count), frame() slots and JSON.
#include "runtime/call_tree.h"

#include <gtest/gtest.h>

#include <map>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "runtime/runtime_profile.h"
#include "support/definitions_via_records.h"
#include "support/v8_stack.h"
#include "trace/session.h"

namespace webprof {
namespace {

// One runtime as the JS side runs it: the polyfill's StackSampler samples
// into a Session; RuntimeProfile annotates and builds results from its trace.
struct Runtime {
  explicit Runtime(uint32_t max_samples) : session({0, max_samples, 0}) {}
  Status Sample(const std::string& text, double ts) {
    Session* s = &session;
    Status result = Status::kOk;
    Status parsed =
        sampler.Sample(text, StackFormat::kAuto, ts, &s, 1, &result);
    return result != Status::kOk ? result : parsed;
  }
  Status Annotate(const std::string& text, uint32_t* slot) {
    return profile.Annotate(text, &session.trace(), slot);
  }
  // With `sources`, each frame's definition from their scans, as in a page.
  const std::string& ResultsJson(const SourceIndex* sources = nullptr) {
    if (!sources) return profile.ResultsJson(session.trace());
    DefinitionsViaRecords(*sources, session.trace(), &definitions);
    return profile.ResultsJson(session.trace(), &definitions);
  }
  void Reset() {
    session.trace().Clear();
    profile.ClearAnnotations();
  }
  Session session;
  StackSampler sampler;
  RuntimeProfile profile;
  FrameDefinitions definitions;
};

const std::string kPage = "http://127.0.0.1/input.js";
std::string At(const std::string& name, int line) {
  std::string pos = kPage + ":" + std::to_string(line) + ":5";
  return name.empty() ? pos : name + " (" + pos + ")";
}

// Checks the invariant at every node and returns the number of nodes.
size_t CheckInvariant(const CallTree& t) {
  const auto& nodes = t.nodes();
  std::vector<uint64_t> child_sum(nodes.size(), 0);
  for (size_t i = 1; i < nodes.size(); ++i) {
    EXPECT_LT(nodes[i].parent, i) << "parent before child";
    child_sum[nodes[i].parent] += nodes[i].samples;
  }
  for (size_t i = 0; i < nodes.size(); ++i)
    EXPECT_EQ(nodes[i].samples, nodes[i].self_count + child_sum[i])
        << "node " << i;
  return nodes.size();
}

TEST(CallTree, ProposalExampleShape) {
  // <top level> calls foo at lines 20 and 21, and bar at 22; bar calls foo
  // at line 12. foo loops on line 3.
  Runtime p(1000);
  double ts = 0;
  auto take = [&](const std::string& text, int n) {
    for (int i = 0; i < n; ++i) ASSERT_EQ(p.Sample(text, ts++), Status::kOk);
  };
  take(V8({At("foo", 3), At("", 20)}), 10);
  take(V8({At("foo", 4), At("", 21)}), 20);  // another line of foo: same node
  take(V8({At("foo", 3), At("", 21)}), 5);
  take(V8({At("foo", 3), At("bar", 12), At("", 22)}), 7);
  take(V8({At("bar", 11), At("", 22)}), 2);

  std::string json = p.ResultsJson();
  EXPECT_EQ(json.rfind("{\"samples\":44,\"selfCount\":0,\"children\":[", 0), 0u)
      << json;
  // The one top-level node (name "" = top-level code) has no site.
  EXPECT_NE(json.find("{\"function\":{\"file\":\"" + kPage +
                      "\",\"name\":\"\"},\"samples\":44,\"selfCount\":0"),
            std::string::npos)
      << json;
  // foo at its two call sites, with 10 and 25 samples; bar at 22 with foo.
  auto node = [&](const char* name, int site, int samples, int self) {
    return std::string("{\"function\":{\"file\":\"") + kPage +
           "\",\"name\":\"" + name + "\"},\"site\":{\"file\":\"" + kPage +
           "\",\"line\":" + std::to_string(site) +
           "},\"samples\":" + std::to_string(samples) +
           ",\"selfCount\":" + std::to_string(self);
  };
  EXPECT_NE(json.find(node("foo", 20, 10, 10)), std::string::npos) << json;
  EXPECT_NE(json.find(node("foo", 21, 25, 25)), std::string::npos) << json;
  EXPECT_NE(json.find(node("bar", 22, 9, 2)), std::string::npos) << json;
  EXPECT_NE(json.find(node("foo", 12, 7, 7)), std::string::npos) << json;
}

// With the script's scan, each function carries its definition line: frames
// on any line of foo meet in foo (line 1), top-level code is "<top level>"
// at the script's start, and two functions that Error.stack names alike
// (two anonymous functions) stay two nodes.
TEST(CallTree, ScannedFunctionsCarryTheirDefinitionLine) {
  SourceIndex sources;
  ASSERT_EQ(sources.Add(kPage,
                        "function foo(n) {\n"      // 1
                        "  for (;;) {}\n"          // 2
                        "  return n;\n"            // 3
                        "}\n"                      // 4
                        "var a = function () {\n"  // 5
                        "  foo(1);\n"              // 6
                        "}, b = [function () {\n"  // 7
                        "  foo(2);\n"              // 8
                        "}];\n"                    // 9
                        "foo(0);\n"                // 10
                        "a(); b[0]();\n",          // 11
                        false),
            Status::kOk);
  Runtime p(100);
  double ts = 0;
  ASSERT_EQ(p.Sample(V8({At("foo", 2), At("", 10)}), ts++), Status::kOk);
  ASSERT_EQ(p.Sample(V8({At("foo", 3), At("", 10)}), ts++), Status::kOk);
  ASSERT_EQ(p.Sample(V8({At("foo", 2), At("a", 6), At("", 11)}), ts++),
            Status::kOk);
  ASSERT_EQ(p.Sample(V8({At("foo", 2), At("", 8), At("", 11)}), ts++),
            Status::kOk);
  std::string json = p.ResultsJson(&sources);
  auto fn = [&](int line, const std::string& name) {
    return "\"function\":{\"file\":\"" + kPage +
           "\",\"line\":" + std::to_string(line) + ",\"name\":\"" + name +
           "\"}";
  };
  EXPECT_NE(json.find(fn(1, "<top level>") + ",\"samples\":4,\"selfCount\":0"),
            std::string::npos)
      << json;
  // foo from line 10 (two samples on two of its lines: one node).
  EXPECT_NE(json.find(fn(1, "foo") + ",\"site\":{\"file\":\"" + kPage +
                      "\",\"line\":10},\"samples\":2,\"selfCount\":2"),
            std::string::npos)
      << json;
  // Both anonymous functions are called from line 11: still two nodes.
  EXPECT_NE(json.find(fn(5, "a")), std::string::npos) << json;
  EXPECT_NE(json.find(fn(7, "")), std::string::npos) << json;
  CallTree t;
  FrameDefinitions definitions;
  DefinitionsViaRecords(sources, p.session.trace(), &definitions);
  t.Build(p.session.trace(), nullptr, &definitions);
  EXPECT_EQ(CheckInvariant(t), 7u);  // root, top, foo, a, foo, "", foo
  // Without the scan the definition line is unknown and not written.
  std::string plain = p.ResultsJson();
  EXPECT_EQ(plain.find("\"line\":1,"), std::string::npos) << plain;
}

TEST(CallTree, SamplesWithoutStackCountAtTheRoot) {
  Runtime p(100);
  ASSERT_EQ(p.Sample("Error", 0), Status::kOk);  // no frame at all
  ASSERT_EQ(p.Sample(V8({At("f", 1)}), 1), Status::kOk);
  EXPECT_EQ(p.ResultsJson().rfind("{\"samples\":2,\"selfCount\":1,", 0), 0u);
}

TEST(CallTree, MaxSamplesLimitsTheTree) {
  Runtime p(2);
  std::string s = V8({At("f", 1)});
  EXPECT_EQ(p.Sample(s, 0), Status::kOk);
  EXPECT_EQ(p.Sample(s, 1), Status::kOk);
  EXPECT_EQ(p.Sample(s, 2), Status::kBufferFull);
  EXPECT_EQ(p.ResultsJson().rfind("{\"samples\":2,", 0), 0u);
}

TEST(CallTree, OwnFramesAreNotInTheTree) {
  Runtime p(10);
  p.sampler.AddOwnUrlPrefix("http://127.0.0.1/webprof/");
  ASSERT_EQ(
      p.Sample(V8({"tick (http://127.0.0.1/webprof/w.mjs:1:1)", At("f", 2)}),
               0),
      Status::kOk);
  std::string json = p.ResultsJson();
  EXPECT_EQ(json.find("tick"), std::string::npos) << json;
  EXPECT_NE(json.find("\"name\":\"f\"},\"samples\":1,\"selfCount\":1"),
            std::string::npos)
      << json;
}

TEST(FrameAnnotations, SameBacktraceSameSlotAndResetClears) {
  Runtime p(10);
  uint32_t a = 99, b = 99, c = 99;
  std::string here = V8({At("g", 7), At("", 30)});
  ASSERT_EQ(p.Annotate(here, &a), Status::kOk);
  ASSERT_EQ(p.Annotate(here, &b), Status::kOk);
  ASSERT_EQ(p.Annotate(V8({At("g", 7), At("", 31)}), &c), Status::kOk);
  EXPECT_EQ(a, 0u);
  EXPECT_EQ(a, b);
  EXPECT_EQ(c, 1u);
  // Never sampled, yet the annotated node is in the tree with 0 samples.
  std::string json = p.ResultsJson();
  EXPECT_NE(json.find("\"samples\":0,\"selfCount\":0,\"frames\":[0],"),
            std::string::npos)
      << json;
  p.Reset();
  EXPECT_EQ(p.profile.annotation_count(), 0u);
  ASSERT_EQ(p.Annotate(V8({At("g", 7), At("", 31)}), &c), Status::kOk);
  EXPECT_EQ(c, 0u);
  EXPECT_EQ(p.ResultsJson().find("\"frames\":[1]"), std::string::npos);
}

TEST(FrameAnnotations, TwoBacktracesOfOneNodeShareIt) {
  Runtime p(10);
  uint32_t a, b;
  ASSERT_EQ(p.Annotate(V8({At("g", 7), At("", 30)}), &a), Status::kOk);
  ASSERT_EQ(p.Annotate(V8({At("g", 8), At("", 30)}), &b), Status::kOk);
  EXPECT_NE(a, b);
  EXPECT_NE(p.ResultsJson().find("\"frames\":[0,1]"), std::string::npos);
}

TEST(FrameAnnotations, OwnAndMutedFramesAreFilteredLikeSamples) {
  Runtime p(10);
  p.profile.sampler().SetOwnNameMarker("__webprof$");
  p.profile.sampler().RequireClassifiedScripts(true);
  uint32_t slot = 99;
  std::string text = V8({"__webprof$capture (http://127.0.0.1/w.js:1:1)",
                         "g (http://127.0.0.1/muted.js:3:1)", At("", 30)});
  // A script nobody classified yet: refused, nothing interned.
  EXPECT_EQ(p.Annotate(text, &slot), Status::kUnclassifiedScript);
  EXPECT_EQ(p.session.trace().stacks().size(), 0u);
  p.profile.sampler().ClassifyScript("http://127.0.0.1/muted.js", true);
  p.profile.sampler().ClassifyScript(kPage, false);
  ASSERT_EQ(p.Annotate(text, &slot), Status::kOk);
  // Only the page's top-level frame is left: webprof's and the muted one go.
  EXPECT_EQ(p.session.trace().stacks().size(), 1u);
  std::string json = p.ResultsJson();
  EXPECT_EQ(json.find("muted"), std::string::npos) << json;
  EXPECT_EQ(json.find("__webprof"), std::string::npos) << json;
}

TEST(CallTree, JsonEscapesNamesAndUrls) {
  Runtime p(10);
  ASSERT_EQ(p.Sample(V8({"q\"uo\\te (http://127.0.0.1/a\tb.js:1:1)"}), 0),
            Status::kOk);
  std::string json = p.ResultsJson();
  EXPECT_NE(json.find("\"name\":\"q\\\"uo\\\\te\""), std::string::npos) << json;
  EXPECT_NE(json.find("a\\u0009b.js"), std::string::npos) << json;
}

// Property: on random call patterns the tree equals a naive count of sample
// paths, where a path element is (function, call site line in the caller).
TEST(CallTreeProperty, InvariantAndPathCountsOnRandomCallPatterns) {
  std::mt19937 rng(12345);
  for (int round = 0; round < 50; ++round) {
    ProfilerTrace trace;
    const int kFunctions = 1 + rng() % 6, kLines = 1 + rng() % 4;
    const char* files[] = {"http://a/x.js", "http://a/y.js", ""};
    using Elem = std::tuple<int, int, int>;  // fn, file, site line (0 = none)
    std::map<std::vector<Elem>, uint64_t> self, total;
    uint64_t none = 0;
    int n_samples = 1 + rng() % 300;
    for (int i = 0; i < n_samples; ++i) {
      int depth = rng() % 7;  // 0 = a sample without a stack
      std::vector<FrameId> ids;
      std::vector<Elem> path;
      int caller_line = 0;
      for (int d = 0; d < depth; ++d) {
        int fn = rng() % kFunctions, file = fn % 3, line = 1 + rng() % kLines;
        std::string name = "f" + std::to_string(fn);
        ids.push_back(trace.InternFrame(
            RawFrame{name, files[file], file == 2 ? 0u : uint32_t(line), 1}));
        // A builtin (no file) has no line: its callees' site line is 0.
        path.emplace_back(fn, file, d == 0 ? -1 : caller_line);
        caller_line = file == 2 ? 0 : line;
      }
      StackId stack = trace.InternStack(ids.data(), ids.size());
      trace.mutable_samples().Append(Sample{double(i), stack});
      if (path.empty()) ++none;
      self[path]++;
      for (size_t k = 1; k <= path.size(); ++k)
        total[std::vector<Elem>(path.begin(), path.begin() + k)]++;
    }
    CallTree t;
    t.Build(trace, nullptr);
    CheckInvariant(t);
    EXPECT_EQ(t.root().samples, uint64_t(n_samples));
    EXPECT_EQ(t.root().self_count, none);
    // Every node's path, rebuilt from the node table, counts as the model.
    const auto& nodes = t.nodes();
    std::vector<std::vector<Elem>> paths(nodes.size());
    std::map<std::string, int> fn_of_name;
    for (size_t i = 1; i < nodes.size(); ++i) {
      const CallTreeFunction& f = t.function(nodes[i].function);
      int fn = std::stoi(std::string(f.name.substr(1)));
      int file = f.resource.is_none()
                     ? 2
                     : (trace.resource_url(f.resource) == files[0] ? 0 : 1);
      int site = nodes[i].parent == 0 ? -1 : int(nodes[i].site_line);
      paths[i] = paths[nodes[i].parent];
      paths[i].emplace_back(fn, file, site);
      EXPECT_EQ(nodes[i].samples, total[paths[i]]) << "round " << round;
      EXPECT_EQ(nodes[i].self_count, self[paths[i]]) << "round " << round;
    }
    // No two nodes share a path, and every sampled path has a node.
    std::map<std::vector<Elem>, int> seen;
    for (size_t i = 1; i < nodes.size(); ++i) EXPECT_EQ(seen[paths[i]]++, 0);
    for (const auto& kv : total) EXPECT_EQ(seen.count(kv.first), 1u);
  }
}

}  // namespace
}  // namespace webprof
