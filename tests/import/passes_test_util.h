// What the graph-pass tests share: a graph's op sequence, and the CPU
// reference's outputs before and after a pass, to compare.
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "gpu_backend/cpu_reference/executor.h"
#include "gpu_backend/graph/graph.h"
#include "gpu_backend/graph/passes/passes.h"

namespace glpool {
namespace testing_util {

// The graph's op types in order.
inline std::vector<std::string> Ops(const Graph& graph) {
  std::vector<std::string> ops;
  for (const Node& node : graph.nodes) ops.push_back(node.op_type);
  return ops;
}

// A graph before the default passes, and what they did to it.
struct PassRun {
  Graph before;
  PassStats stats;
  Status status;
};

// Runs the default passes on `graph` at `opset` (13, unless a test is about
// the opset), keeping a copy of it as it was.
inline PassRun RunDefaultPassesOn(Graph& graph, int64_t opset = 13) {
  graph.opset = opset;
  PassRun run;
  run.before = graph;
  run.status = RunDefaultPasses(graph, &run.stats);
  return run;
}

// The CPU reference's output `name` of `graph` on input x = `x`.
inline std::vector<float> RunOnCpu(const Graph& graph, const TensorData& x, const std::string& name) {
  auto out = cpu_reference::RunGraph(graph, {{"x", x}});
  EXPECT_TRUE(out.ok()) << out.status().ToString();
  return out.ok() ? out->at(name).ToFloats() : std::vector<float>{};
}

// Same, for a graph of several inputs.
inline std::vector<float> RunOnCpu(const Graph& graph, const std::map<std::string, TensorData>& inputs,
                                   const std::string& name) {
  auto out = cpu_reference::RunGraph(graph, inputs);
  EXPECT_TRUE(out.ok()) << out.status().ToString();
  return out.ok() ? out->at(name).ToFloats() : std::vector<float>{};
}

inline TensorData Ramp(const Shape& shape, float step) {
  std::vector<float> values(static_cast<size_t>(ElementCount(shape)));
  for (size_t i = 0; i < values.size(); ++i) values[i] = -4.0f + step * static_cast<float>(i % 97);
  return TensorData::FromFloats(shape, values);
}

inline void ExpectClose(const std::vector<float>& a, const std::vector<float>& b) {
  ASSERT_EQ(a.size(), b.size());
  for (size_t i = 0; i < a.size(); ++i) EXPECT_NEAR(a[i], b[i], 1e-4f * (1.0f + std::fabs(b[i]))) << i;
}

}  // namespace testing_util
}  // namespace glpool
