// LowerTrainingBatchNorm (a graph pass) checked against the CPU reference:
// the lowered graph must compute what the training-mode node computes, Y
// and the running statistics alike. The GPU runs the lowered graph's ops
// with its own kernels (glpool test-onnx --backend gpu on the ONNX
// batchnorm *_training_mode cases).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>

#include "gpu_backend/cpu_reference/executor.h"
#include "gpu_backend/graph/passes/passes.h"

namespace glpool {
namespace {

TensorData Random(const Shape& shape, uint32_t seed, float lo, float hi) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> dist(lo, hi);
  std::vector<float> values(static_cast<size_t>(ElementCount(shape)));
  for (float& v : values) v = dist(rng);
  return TensorData::FromFloats(shape, values);
}

struct TrainingCase {
  Graph graph;
  std::map<std::string, TensorData> inputs;
};

// X [shape] with scale, B, mean and var as graph inputs (as the ONNX node
// tests feed them); outputs Y and those of `outputs` beyond it.
TrainingCase Training(const Shape& shape, int64_t opset, std::vector<std::string> outputs) {
  TrainingCase c;
  Graph& g = c.graph;
  g.opset = opset;
  const int64_t channels = shape[1];
  const std::pair<const char*, Shape> inputs[] = {
      {"x", shape}, {"scale", {channels}}, {"bias", {channels}}, {"mean", {channels}}, {"var", {channels}}};
  uint32_t seed = 11;
  for (const auto& [name, input_shape] : inputs) {
    g.tensors[name] = Tensor{name, DataType::kFloat32, input_shape, false, {}};
    g.inputs.push_back(name);
    const bool positive = std::string(name) == "var";
    c.inputs[name] = Random(input_shape, seed++, positive ? 0.5f : -2.0f, 2.0f);
  }
  Node bn;
  bn.name = "bn";
  bn.op_type = "BatchNormalization";
  bn.inputs = {"x", "scale", "bias", "mean", "var"};
  bn.outputs = outputs;
  bn.attributes["training_mode"] = int64_t{1};
  bn.attributes["epsilon"] = 1e-2f;
  bn.attributes["momentum"] = 0.8f;
  g.nodes.push_back(bn);
  for (size_t i = 0; i < outputs.size(); ++i) {
    if (outputs[i].empty()) continue;
    g.tensors[outputs[i]] = Tensor{outputs[i], DataType::kFloat32, i == 0 ? shape : Shape{channels}, false, {}};
    g.outputs.push_back(outputs[i]);
  }
  return c;
}

std::vector<std::string> Ops(const Graph& graph) {
  std::vector<std::string> ops;
  for (const Node& node : graph.nodes) ops.push_back(node.op_type);
  return ops;
}

void ExpectSameOutputs(const TrainingCase& original, const Graph& lowered) {
  auto want = cpu_reference::RunGraph(original.graph, original.inputs);
  ASSERT_TRUE(want.ok()) << want.status().ToString();
  auto got = cpu_reference::RunGraph(lowered, original.inputs);
  ASSERT_TRUE(got.ok()) << got.status().ToString();
  ASSERT_EQ(got->size(), want->size());
  for (const auto& [name, expected] : *want) {
    SCOPED_TRACE(name);
    ASSERT_TRUE(got->count(name));
    const std::vector<float> a = expected.ToFloats(), b = got->at(name).ToFloats();
    ASSERT_EQ(a.size(), b.size());
    for (size_t i = 0; i < a.size(); ++i) EXPECT_NEAR(a[i], b[i], 1e-5f * std::max(1.0f, std::fabs(a[i])));
  }
}

TEST(LowerTrainingBatchNormTest, AllOutputsMatchTheTrainingNode) {
  TrainingCase c = Training({2, 5, 3, 7}, 15, {"y", "running_mean", "running_var"});
  Graph lowered = c.graph;
  StatusOr<int> count = LowerTrainingBatchNorm(lowered);
  ASSERT_TRUE(count.ok()) << count.status().ToString();
  EXPECT_EQ(*count, 1);
  EXPECT_EQ(Ops(lowered), (std::vector<std::string>{"ReduceMean", "Sub", "Mul", "ReduceMean", "Reshape", "Reshape",
                                                    "BatchNormalization", "Mul", "Mul", "Add", "Mul", "Mul", "Add"}));
  const Node& normalize = lowered.nodes[6];
  EXPECT_FALSE(normalize.HasAttribute("training_mode"));
  EXPECT_EQ(normalize.GetFloat("epsilon", 0.0f), 1e-2f);
  EXPECT_EQ(normalize.outputs, std::vector<std::string>{"y"});
  ExpectSameOutputs(c, lowered);
}

TEST(LowerTrainingBatchNormTest, OnlyReadOutputsAreComputed) {
  // Y alone (rank 2: statistics over the batch only), then Y and running_var.
  TrainingCase y_only = Training({4, 3}, 14, {"y"});
  Graph lowered = y_only.graph;
  ASSERT_EQ(*LowerTrainingBatchNorm(lowered), 1);
  EXPECT_EQ(Ops(lowered).size(), 7u);
  ExpectSameOutputs(y_only, lowered);

  TrainingCase with_var = Training({1, 13, 2, 3, 5}, 17, {"y", "", "running_var"});
  lowered = with_var.graph;
  ASSERT_EQ(*LowerTrainingBatchNorm(lowered), 1);
  EXPECT_EQ(Ops(lowered).size(), 10u);
  EXPECT_EQ(lowered.nodes[0].GetInts("axes"), (std::vector<int64_t>{0, 2, 3, 4}));
  ExpectSameOutputs(with_var, lowered);
}

TEST(LowerTrainingBatchNormTest, Opset18ReducesOverAnAxesInput) {
  // The CPU reference stops at opset 17, so only the structure is checked.
  TrainingCase c = Training({2, 5, 3, 7}, 18, {"y"});
  ASSERT_EQ(*LowerTrainingBatchNorm(c.graph), 1);
  for (size_t i : {0u, 3u}) {
    const Node& reduce = c.graph.nodes[i];
    ASSERT_EQ(reduce.op_type, "ReduceMean");
    EXPECT_FALSE(reduce.HasAttribute("axes"));
    ASSERT_EQ(reduce.inputs.size(), 2u);
    const Tensor* axes = c.graph.FindTensor(reduce.inputs[1]);
    ASSERT_NE(axes, nullptr);
    EXPECT_TRUE(axes->is_constant);
    EXPECT_EQ(axes->data.ToInt64s(), (std::vector<int64_t>{0, 2, 3}));
  }
}

TEST(LowerTrainingBatchNormTest, DefaultPassesLowerBeforeFolding) {
  TrainingCase c = Training({2, 5, 3, 7}, 15, {"y", "running_mean", "running_var"});
  Graph lowered = c.graph;
  PassStats stats;
  ASSERT_TRUE(RunDefaultPasses(lowered, &stats).ok());
  EXPECT_EQ(stats.training_batchnorms_lowered, 1);
  EXPECT_EQ(stats.free_reshapes, 2);  // the [1, C, 1, 1] -> [C] views
  ExpectSameOutputs(c, lowered);
}

TEST(LowerTrainingBatchNormTest, InferenceAndOldOpsetsStay) {
  TrainingCase inference = Training({1, 3, 2, 2}, 15, {"y"});
  inference.graph.nodes[0].attributes.erase("training_mode");
  EXPECT_EQ(*LowerTrainingBatchNorm(inference.graph), 0);

  TrainingCase old = Training({1, 3, 2, 2}, 13, {"y"});  // no training_mode before opset 14
  EXPECT_EQ(*LowerTrainingBatchNorm(old.graph), 0);
  EXPECT_EQ(Ops(old.graph), std::vector<std::string>{"BatchNormalization"});
}

}  // namespace
}  // namespace glpool
