// float16 on the CPU reference: values are halves, kernels compute in
// float32 (float32 accumulation, which ONNX allows) and each result is
// rounded to the nearest half, ties to even, as a float16 runtime stores it.
#include <gtest/gtest.h>

#include <cmath>

#include "gpu_backend/cpu_reference/executor.h"
#include "gpu_backend/graph/float16.h"
#include "gpu_backend/graph/passes/passes.h"
#include "tests/cpu_reference/cpu_reference_test_util.h"

namespace glpool {
namespace {

using testing_util::MakeNode;
using testing_util::RunOp;

TensorData Halves(Shape shape, const std::vector<float>& values) {
  StatusOr<TensorData> data = FloatsAsTensor(DataType::kFloat16, std::move(shape), values);
  EXPECT_TRUE(data.ok());
  return *data;
}

TEST(Float16Test, ResultsRoundToTheNearestHalfTiesToEven) {
  // Half's spacing just above 1 is 2^-10. 1 + 2^-11 lies halfway between 1
  // and 1 + 2^-10: it rounds to 1 (even); (1 + 2^-10) + 2^-11 lies halfway
  // between 1 + 2^-10 and 1 + 2^-9: it rounds to 1 + 2^-9 (even).
  const float step = 1.0f / 1024.0f;
  const TensorData a = Halves({2}, {1.0f, 1.0f + step});
  const TensorData b = Halves({2}, {step / 2, step / 2});
  auto result = RunOp(MakeNode("Add"), {&a, &b});
  ASSERT_TRUE(result.ok()) << result.status().ToString();
  EXPECT_EQ((*result)[0].dtype, DataType::kFloat16);
  EXPECT_EQ((*result)[0].ToFloats(), (std::vector<float>{1.0f, 1.0f + 2 * step}));
}

TEST(Float16Test, AccumulatesInFloat32) {
  // 4096 products of 1 x 1: a float16 accumulator stops at 2048 (2048 + 1
  // rounds back to 2048); float32 accumulation reaches 4096, a half.
  const TensorData a = Halves({1, 4096}, std::vector<float>(4096, 1.0f));
  const TensorData b = Halves({4096, 1}, std::vector<float>(4096, 1.0f));
  auto result = RunOp(MakeNode("MatMul"), {&a, &b});
  ASSERT_TRUE(result.ok()) << result.status().ToString();
  EXPECT_EQ((*result)[0].dtype, DataType::kFloat16);
  EXPECT_EQ((*result)[0].ToFloats(), (std::vector<float>{4096.0f}));
}

TEST(Float16Test, OverflowBecomesInfinityAsInAHalfStore) {
  const TensorData a = Halves({1}, {60000.0f});
  auto result = RunOp(MakeNode("Add"), {&a, &a});
  ASSERT_TRUE(result.ok()) << result.status().ToString();
  EXPECT_TRUE(std::isinf((*result)[0].ToFloats()[0]));
}

TEST(Float16Test, NonFloatOutputsKeepTheirType) {
  const TensorData a = Halves({3}, {1.0f, -2.0f, 0.5f});
  const TensorData b = Halves({3}, {1.0f, 2.0f, 0.25f});
  auto less = RunOp(MakeNode("Less"), {&a, &b});
  ASSERT_TRUE(less.ok()) << less.status().ToString();
  EXPECT_EQ((*less)[0].dtype, DataType::kBool);
  EXPECT_EQ((*less)[0].ToInt64s(), (std::vector<int64_t>{0, 1, 0}));
  auto arg = RunOp(MakeNode("ArgMax", 1, {{"axis", int64_t{0}}}), {&a});
  ASSERT_TRUE(arg.ok()) << arg.status().ToString();
  EXPECT_EQ((*arg)[0].dtype, DataType::kInt64);
}

// LayerNormalization's Mean and InvStdDev are float32 (stash_type 1) while
// Y follows X: the dtypes the graph records decide, as the fallback and
// RunGraph pass them.
TEST(Float16Test, OutputsTheGraphRecordsAsFloat32StayFloat32) {
  Node node = MakeNode("LayerNormalization", 3, {{"axis", int64_t{-1}}});
  const TensorData x = Halves({2, 3}, {1, 2, 3, -1, 0, 1});
  const TensorData scale = Halves({3}, {1, 1, 1});
  const TensorData bias = Halves({3}, {0, 0, 0});
  auto result = cpu_reference::RunNode(node, 17, {&x, &scale, &bias},
                                       {DataType::kFloat16, DataType::kFloat32, DataType::kFloat32});
  ASSERT_TRUE(result.ok()) << result.status().ToString();
  ASSERT_EQ(result->size(), 3u);
  EXPECT_EQ((*result)[0].dtype, DataType::kFloat16);
  EXPECT_EQ((*result)[1].dtype, DataType::kFloat32);
  EXPECT_EQ((*result)[2].dtype, DataType::kFloat32);
  EXPECT_EQ((*result)[1].ToFloats(), (std::vector<float>{2.0f, 0.0f}));
}

// A float16 graph through RunGraph, its recorded dtypes checked, after the
// default passes too (a wide Mean becomes a Sum tree and a float16 scale).
TEST(Float16Test, GraphWithAWideMeanRunsBeforeAndAfterThePasses) {
  Graph graph;
  graph.opset = 13;
  Node mean;
  mean.name = "mean";
  mean.op_type = "Mean";
  std::map<std::string, TensorData> inputs;
  for (int i = 0; i < 9; ++i) {
    const std::string name = "x" + std::to_string(i);
    graph.tensors[name] = Tensor{name, DataType::kFloat16, {2}, false, {}};
    graph.inputs.push_back(name);
    mean.inputs.push_back(name);
    inputs[name] = Halves({2}, {static_cast<float>(i), 0.5f});
  }
  mean.outputs = {"y"};
  graph.tensors["y"] = Tensor{"y", DataType::kFloat16, {2}, false, {}};
  graph.outputs = {"y"};
  graph.nodes = {mean};
  auto before = cpu_reference::RunGraph(graph, inputs);
  ASSERT_TRUE(before.ok()) << before.status().ToString();
  EXPECT_EQ(before->at("y").dtype, DataType::kFloat16);
  EXPECT_EQ(before->at("y").ToFloats(), (std::vector<float>{4.0f, 0.5f}));  // (0 + ... + 8) / 9
  ASSERT_TRUE(RunDefaultPasses(graph).ok());
  ASSERT_GT(graph.nodes.size(), 1u);
  auto after = cpu_reference::RunGraph(graph, inputs);
  ASSERT_TRUE(after.ok()) << after.status().ToString();
  EXPECT_EQ(after->at("y").dtype, DataType::kFloat16);
  // 36 x half(1/9): within a half's spacing at 4 (2^-8).
  EXPECT_NEAR(after->at("y").ToFloats()[0], 4.0f, 1.0f / 256);
  EXPECT_NEAR(after->at("y").ToFloats()[1], 0.5f, 1.0f / 2048);
}

}  // namespace
}  // namespace glpool
