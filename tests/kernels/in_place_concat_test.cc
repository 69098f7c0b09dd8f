// In-place Concat on the GPU (compile/in_place_concat.h): producers write
// into slices of the Concat's output, which every object kind and
// precision addresses through the accessors' slice base. The result
// matches the CPU reference; a window read by a second task, and kept to
// be read after Run, holds its own values.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "gpu_backend/cpu_reference/executor.h"
#include "tests/import/graph_builder.h"
#include "tests/kernels/kernel_test_util.h"

namespace glpool::testing {
namespace {

// x -> Conv a (8 channels, ReLU), Conv b (6, 3x3) -> Concat c (14) -> Conv y;
// a is also pooled by GlobalAveragePool -> z.
Graph FireGraph() {
  testing_util::GraphBuilder b;
  b.Input("x", {2, 5, 9, 11})
      .Constant("wa", {8, 5, 1, 1}, RandomTensor({8, 5, 1, 1}, 1).ToFloats())
      .Constant("wb", {6, 5, 3, 3}, RandomTensor({6, 5, 3, 3}, 2).ToFloats())
      .Constant("wy", {3, 14, 1, 1}, RandomTensor({3, 14, 1, 1}, 3).ToFloats())
      .Op("Conv", {"x", "wa"}, "a", {2, 8, 9, 11}, {{"fused_activation", std::string("Relu")}})
      .Op("Conv", {"x", "wb"}, "b", {2, 6, 9, 11}, {{"pads", std::vector<int64_t>{1, 1, 1, 1}}})
      .Op("Concat", {"a", "b"}, "c", {2, 14, 9, 11}, {{"axis", int64_t{1}}})
      .Op("Conv", {"c", "wy"}, "y", {2, 3, 9, 11})
      .Op("GlobalAveragePool", {"a"}, "z", {2, 8, 1, 1})
      .Output("y")
      .Output("z");
  return b.graph();
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
