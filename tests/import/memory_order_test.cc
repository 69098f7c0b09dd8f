// OrderForMemory (gpu_backend/compile/memory_order.h): the order it returns
// is a topological order of the same nodes, its peak is never above the
// given order's, and it lowers the peak where the given order is wasteful —
// also when the search has no time at all (the greedy finish).
#include <gtest/gtest.h>

#include <set>

#include "gpu_backend/compile/memory_order.h"
#include "gpu_backend/import/onnx_import.h"
#include "model_builder.h"

namespace glpool {
namespace {

using testing_util::ModelBuilder;

// `branches` branches over x, each Sigmoid (large) -> GlobalAveragePool
// (small), listed breadth-first, summed at the end.
Graph BreadthFirstBranches(int branches) {
  ModelBuilder builder;
  builder.Input("x", {1, 8, 32, 32}).Output("y");
  for (int i = 0; i < branches; ++i) {
    builder.Node("Sigmoid", {"x"}, {"big" + std::to_string(i)}, "sigmoid" + std::to_string(i));
  }
  std::vector<std::string> pooled;
  for (int i = 0; i < branches; ++i) {
    pooled.push_back("small" + std::to_string(i));
    builder.Node("GlobalAveragePool", {"big" + std::to_string(i)}, {pooled.back()}, "pool" + std::to_string(i));
  }
  builder.Node("Sum", pooled, {"y"}, "sum");
  StatusOr<Graph> graph = LoadOnnxModel(builder.Save(testing_util::MakeTempDir()));
  EXPECT_TRUE(graph.ok()) << graph.status().ToString();
  return std::move(graph).value();
}

void ExpectTopologicalPermutation(const Graph& given, const Graph& ordered) {
  ASSERT_EQ(ordered.nodes.size(), given.nodes.size());
  std::set<std::string> given_names, seen;
  for (const Node& node : given.nodes) given_names.insert(node.name);
  std::set<std::string> available(given.inputs.begin(), given.inputs.end());
  for (const auto& [name, tensor] : given.tensors) {
    if (tensor.is_constant) available.insert(name);
  }
  for (const Node& node : ordered.nodes) {
    EXPECT_TRUE(given_names.count(node.name)) << node.name;
    EXPECT_TRUE(seen.insert(node.name).second) << node.name << " runs twice";
    for (const std::string& in : node.inputs) {
      EXPECT_TRUE(in.empty() || available.count(in)) << node.name << " reads " << in << " before it is made";
    }
    for (const std::string& out : node.outputs) available.insert(out);
  }
}

TEST(MemoryOrder, BreadthFirstBranchesAreRunOneAfterAnother) {
  const Graph given = BreadthFirstBranches(4);
  StatusOr<MemoryOrderResult> result = OrderForMemory(given, {});
  ASSERT_TRUE(result.ok()) << result.status().ToString();
  ExpectTopologicalPermutation(given, result->graph);
  EXPECT_TRUE(result->reordered);
  // Given: four 32 KiB tensors live at once; ordered: one (and the small ones).
  EXPECT_GE(result->peak_given, 4u * 32768u);
  EXPECT_LT(result->peak, 2u * 32768u);
  StatusOr<uint64_t> measured = PeakLiveBytes(result->graph, Precision::kFp32);
  ASSERT_TRUE(measured.ok());
  EXPECT_EQ(*measured, result->peak);
}

TEST(MemoryOrder, WithoutTimeTheGreedyFinishStillHelpsAndStaysValid) {
  const Graph given = BreadthFirstBranches(6);
  MemoryOrderOptions options;
  options.budget_seconds = 0;
  options.max_expansions = 1;
  StatusOr<MemoryOrderResult> result = OrderForMemory(given, options);
  ASSERT_TRUE(result.ok()) << result.status().ToString();
  ExpectTopologicalPermutation(given, result->graph);
  EXPECT_LE(result->peak, result->peak_given);
  EXPECT_TRUE(result->cut_short);
}

TEST(MemoryOrder, AnOrderThatIsAlreadyBestIsKept) {
  ModelBuilder builder;
  builder.Input("x", {1, 4, 8, 8}).Output("y");
  builder.Node("Relu", {"x"}, {"a"}, "relu").Node("Sigmoid", {"a"}, {"b"}, "sigmoid").Node("Tanh", {"b"}, {"y"}, "tanh");
  StatusOr<Graph> given = LoadOnnxModel(builder.Save(testing_util::MakeTempDir()));
  ASSERT_TRUE(given.ok());
  StatusOr<MemoryOrderResult> result = OrderForMemory(*given, {});
  ASSERT_TRUE(result.ok());
  EXPECT_FALSE(result->reordered);
  EXPECT_EQ(result->peak, result->peak_given);
  for (size_t i = 0; i < given->nodes.size(); ++i) EXPECT_EQ(result->graph.nodes[i].name, given->nodes[i].name);
}

}  // namespace
}  // namespace glpool
