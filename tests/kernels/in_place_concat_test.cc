// In-place Concat on the GPU (compile/in_place_concat.h): producers write
// into slices of the Concat's output, which every object kind and
// precision addresses through the accessors' slice base. The result
// matches the CPU reference; a window read by a second task, and kept to
// be read after Run, holds its own values.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "gpu_backend/cpu_reference/executor.h"
#include "tests/kernels/kernel_test_util.h"

namespace glpool::testing {
namespace {

// x -> Conv a (8 channels, ReLU), Conv b (6, 3x3) -> Concat c (14) -> Conv y;
// a is also pooled by GlobalAveragePool -> z.
Graph FireGraph() {
  Graph graph;
  graph.opset = 13;
  auto add = [&graph](const std::string& name, const Shape& shape, TensorData data = {}) {
    const bool constant = !data.bytes.empty();
    graph.tensors[name] = Tensor{name, DataType::kFloat32, shape, constant, std::move(data)};
  };
  add("x", {2, 5, 9, 11});
  add("wa", {8, 5, 1, 1}, RandomTensor({8, 5, 1, 1}, 1));
  add("wb", {6, 5, 3, 3}, RandomTensor({6, 5, 3, 3}, 2));
  add("wy", {3, 14, 1, 1}, RandomTensor({3, 14, 1, 1}, 3));
  for (const auto& [name, shape] : std::vector<std::pair<std::string, Shape>>{
           {"a", {2, 8, 9, 11}}, {"b", {2, 6, 9, 11}}, {"c", {2, 14, 9, 11}}, {"y", {2, 3, 9, 11}}, {"z", {2, 8, 1, 1}}}) {
    add(name, shape);
  }
  auto node = [&graph](const std::string& op, std::vector<std::string> in, const std::string& out,
                       std::map<std::string, AttributeValue> attributes = {}) {
    Node n;
    n.name = op + "_" + out;
    n.op_type = op;
    n.inputs = std::move(in);
    n.outputs = {out};
    n.attributes = std::move(attributes);
    graph.nodes.push_back(std::move(n));
  };
  node("Conv", {"x", "wa"}, "a", {{"fused_activation", std::string("Relu")}});
  node("Conv", {"x", "wb"}, "b", {{"pads", std::vector<int64_t>{1, 1, 1, 1}}});
  node("Concat", {"a", "b"}, "c", {{"axis", int64_t{1}}});
  node("Conv", {"c", "wy"}, "y");
  node("GlobalAveragePool", {"a"}, "z");
  graph.inputs = {"x"};
  graph.outputs = {"y", "z"};
  return graph;
}

float MaxError(const std::vector<float>& got, const std::vector<float>& want, float* largest) {
  EXPECT_EQ(got.size(), want.size());
  float error = 0;
  *largest = 0;
  for (size_t i = 0; i < std::min(got.size(), want.size()); ++i) {
    error = std::max(error, std::fabs(got[i] - want[i]));
    *largest = std::max(*largest, std::fabs(want[i]));
  }
  return error;
}

TEST(InPlaceConcatGpu, ProducersWriteIntoTheConcatOnEveryObjectKind) {
  ASSERT_TRUE(ContextInfo().ok()) << ContextInfo().status().ToString();
  const Graph graph = FireGraph();
  const std::map<std::string, TensorData> inputs = {{"x", RandomTensor({2, 5, 9, 11}, 4)}};
  Graph with_b = graph;
  with_b.outputs.push_back("b");
  auto reference = cpu_reference::RunGraph(with_b, inputs);
  ASSERT_TRUE(reference.ok()) << reference.status().ToString();
  for (ExecutorOptions options : AllVariants()) {
    SCOPED_TRACE(VariantName(options));
    options.keep = {"b"};
    auto executor = Executor::Create(graph, options);
    ASSERT_TRUE(executor.ok()) << executor.status().ToString();
    for (const TaskInfo& task : (*executor)->tasks()) EXPECT_NE(task.op_type, "Concat");
    EXPECT_EQ((*executor)->tasks().size(), 4u);
    auto outputs = (*executor)->Run(inputs);
    ASSERT_TRUE(outputs.ok()) << outputs.status().ToString();
    const float tolerance = options.precision == Precision::kFp16 ? 2e-2f : 1e-4f;
    for (const std::string name : {"y", "z", "b"}) {
      SCOPED_TRACE(name);
      StatusOr<TensorData> got = name == "b" ? (*executor)->ReadTensor("b") : StatusOr<TensorData>(outputs->at(name));
      ASSERT_TRUE(got.ok()) << got.status().ToString();
      float largest = 0;
      const float error = MaxError(got->ToFloats(), reference->at(name).ToFloats(), &largest);
      ASSERT_GT(largest, 0.0f);
      EXPECT_LE(error, tolerance * largest);
    }
  }
}

}  // namespace
}  // namespace glpool::testing
