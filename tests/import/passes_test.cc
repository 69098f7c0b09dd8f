// Each graph pass on a small graph, and the default pipeline.
#include <gtest/gtest.h>

#include <cmath>

#include "gpu_backend/graph/fused_activation.h"
#include "gpu_backend/graph/passes/fusion_util.h"
#include "gpu_backend/graph/passes/passes.h"
#include "graph_builder.h"
#include "passes_test_util.h"

namespace glpool {
namespace {

using testing_util::ExpectClose;
using testing_util::GraphBuilder;
using testing_util::Ops;
using testing_util::PassRun;
using testing_util::Ramp;
using testing_util::RunDefaultPassesOn;
using testing_util::RunOnCpu;

void AddBoolScalar(Graph& graph, const std::string& name, bool value) {
  TensorData data;
  data.dtype = DataType::kBool;
  data.bytes = {static_cast<uint8_t>(value)};
  graph.tensors[name] = Tensor{name, DataType::kBool, {}, true, data};
}

TEST(Passes, RemoveIdentitiesRewiresReaders) {
  GraphBuilder b;
  b.Input("x", {1, 4})
      .Op("Identity", {"x"}, "i", {1, 4})
      .Op("Relu", {"i"}, "r", {1, 4})
      .Op("Dropout", {"r"}, "d", {1, 4})
      .Op("Identity", {"d"}, "y", {1, 4})
      .Output("y");
  Graph& g = b.graph();
  StatusOr<int> removed = RemoveIdentities(g);
  ASSERT_TRUE(removed.ok());
  EXPECT_EQ(*removed, 3);
  ASSERT_EQ(Ops(g), std::vector<std::string>{"Relu"});
  EXPECT_EQ(g.nodes[0].inputs[0], "x");
  EXPECT_EQ(g.nodes[0].outputs[0], "y");  // the graph output keeps its name
  EXPECT_EQ(g.FindTensor("i"), nullptr);
  EXPECT_EQ(g.FindTensor("d"), nullptr);
}

TEST(Passes, RemoveIdentitiesKeepsInputToOutputIdentityAndUsedDropoutMask) {
  GraphBuilder b;
  b.Input("x", {2}).Op("Identity", {"x"}, "y", {2}).Op("Dropout", {"x"}, "d", {2}).Output("y");
  Graph& g = b.graph();
  g.nodes[1].outputs.push_back("mask");
  g.tensors["mask"].name = "mask";
  g.tensors["mask"].dtype = DataType::kBool;
  g.outputs.push_back("mask");
  ASSERT_EQ(*RemoveIdentities(g), 0);
  EXPECT_EQ(g.nodes.size(), 2u);
}

TEST(Passes, SeededTrainingDropoutBecomesMulByItsConstantMask) {
  GraphBuilder b;
  b.Input("x", {2, 50})
      .Constant("ratio", {}, {0.25f})
      .Op("Dropout", {"x", "ratio", "training"}, "y", {2, 50}, {{"seed", int64_t{3}}})
      .Output("y");
  Graph& g = b.graph();
  AddBoolScalar(g, "training", true);
  g.nodes[0].outputs.push_back("mask");
  g.tensors["mask"] = Tensor{"mask", DataType::kBool, {2, 50}, false, {}};
  g.outputs.push_back("mask");
  ASSERT_EQ(*LowerSeededTrainingDropout(g), 1);
  ASSERT_EQ(Ops(g), std::vector<std::string>{"Mul"});
  const Tensor* factors = g.FindTensor(g.nodes[0].inputs[1]);
  const Tensor* mask = g.FindTensor("mask");
  ASSERT_TRUE(factors && factors->is_constant && mask && mask->is_constant);
  const std::vector<float> f = factors->data.ToFloats();
  const std::vector<int64_t> m = mask->data.ToInt64s();
  int kept = 0;
  for (size_t i = 0; i < f.size(); ++i) {
    EXPECT_FLOAT_EQ(f[i], m[i] ? 1.0f / 0.75f : 0.0f);
    kept += static_cast<int>(m[i]);
  }
  EXPECT_GT(kept, 50);  // about three quarters of 100 survive
  EXPECT_LT(kept, 100);
}

TEST(Passes, UnseededOrInferenceDropoutIsNotLowered) {
  GraphBuilder b;
  b.Input("x", {4}).Op("Dropout", {"x", "", "training"}, "y", {4}).Output("y");
  Graph& g = b.graph();
  AddBoolScalar(g, "training", true);  // random without a seed: left for the backend to refuse
  EXPECT_EQ(*LowerSeededTrainingDropout(g), 0);
  g.nodes[0].attributes["seed"] = int64_t{1};
  g.tensors["training"].data.bytes = {0};  // inference mode: the identity, RemoveIdentities' job
  EXPECT_EQ(*LowerSeededTrainingDropout(g), 0);
}

TEST(Passes, FoldBatchNormIntoConv) {
  GraphBuilder b;
  b.Input("x", {1, 1, 3, 3})
      .Constant("w", {2, 1, 1, 1}, {1.0f, 2.0f})
      .Constant("bias", {2}, {0.5f, -1.0f})
      .Constant("scale", {2}, {2.0f, 3.0f})
      .Constant("shift", {2}, {0.1f, 0.2f})
      .Constant("mean", {2}, {1.0f, -1.0f})
      .Constant("var", {2}, {4.0f, 9.0f})
      .Op("Conv", {"x", "w", "bias"}, "c", {1, 2, 3, 3})
      .Op("BatchNormalization", {"c", "scale", "shift", "mean", "var"}, "y", {1, 2, 3, 3},
          {{"epsilon", 0.0f}})
      .Output("y");
  Graph& g = b.graph();
  ASSERT_EQ(*FoldBatchNormIntoConv(g), 1);
  ASSERT_EQ(Ops(g), std::vector<std::string>{"Conv"});
  const Node& conv = g.nodes[0];
  EXPECT_EQ(conv.outputs[0], "y");
  // s = scale / sqrt(var) = {1, 1}; b' = (b - mean) * s + shift.
  const std::vector<float> w = g.FindTensor(conv.inputs[1])->data.ToFloats();
  const std::vector<float> bias = g.FindTensor(conv.inputs[2])->data.ToFloats();
  EXPECT_FLOAT_EQ(w[0], 1.0f);
  EXPECT_FLOAT_EQ(w[1], 2.0f);
  EXPECT_FLOAT_EQ(bias[0], -0.5f + 0.1f);
  EXPECT_FLOAT_EQ(bias[1], 0.0f + 0.2f);
  // The original weights are untouched (they might be shared).
  EXPECT_EQ(g.FindTensor("w")->data.ToFloats(), (std::vector<float>{1.0f, 2.0f}));
}

TEST(Passes, FoldBatchNormAddsABiasWhenConvHasNone) {
  GraphBuilder b;
  b.Input("x", {1, 1, 2, 2})
      .Constant("w", {1, 1, 1, 1}, {2.0f})
      .Constant("scale", {1}, {4.0f})
      .Constant("shift", {1}, {1.0f})
      .Constant("mean", {1}, {0.5f})
      .Constant("var", {1}, {3.99999f})
      .Op("Conv", {"x", "w"}, "c", {1, 1, 2, 2})
      .Op("BatchNormalization", {"c", "scale", "shift", "mean", "var"}, "y", {1, 1, 2, 2})
      .Output("y");
  Graph& g = b.graph();
  ASSERT_EQ(*FoldBatchNormIntoConv(g), 1);
  ASSERT_EQ(g.nodes[0].inputs.size(), 3u);
  const double s = 4.0 / std::sqrt(3.99999 + 1e-5);
  EXPECT_NEAR(g.FindTensor(g.nodes[0].inputs[1])->data.ToFloats()[0], 2.0 * s, 1e-5);
  EXPECT_NEAR(g.FindTensor(g.nodes[0].inputs[2])->data.ToFloats()[0], -0.5 * s + 1.0, 1e-5);
}

TEST(Passes, FoldBatchNormSkipsAConvOutputReadTwice) {
  GraphBuilder b;
  b.Input("x", {1, 1, 2, 2})
      .Constant("w", {1, 1, 1, 1}, {2.0f})
      .Constant("p", {1}, {1.0f})
      .Op("Conv", {"x", "w"}, "c", {1, 1, 2, 2})
      .Op("BatchNormalization", {"c", "p", "p", "p", "p"}, "y", {1, 1, 2, 2})
      .Op("Add", {"c", "y"}, "z", {1, 1, 2, 2})
      .Output("z");
  EXPECT_EQ(*FoldBatchNormIntoConv(b.graph()), 0);
}

TEST(Passes, FuseActivations) {
  GraphBuilder b;
  b.Input("x", {1, 4})
      .Constant("w", {4, 4}, std::vector<float>(16, 1.0f))
      .Constant("lo", {}, {0.0f})
      .Constant("hi", {}, {6.0f})
      .Op("Gemm", {"x", "w"}, "g", {1, 4})
      .Op("Clip", {"g", "lo", "hi"}, "c", {1, 4})
      .Op("Add", {"c", "x"}, "a", {1, 4})
      .Op("LeakyRelu", {"a"}, "l", {1, 4}, {{"alpha", 0.25f}})
      .Op("Relu", {"l"}, "y", {1, 4})  // producer is Add with LeakyRelu fused already: stays
      .Output("y");
  Graph& g = b.graph();
  ASSERT_EQ(*FuseActivations(g), 2);
  ASSERT_EQ(Ops(g), (std::vector<std::string>{"Gemm", "Add", "Relu"}));
  std::optional<FusedActivation> clip = GetFusedActivation(g.nodes[0]);
  ASSERT_TRUE(clip);
  EXPECT_EQ(clip->type, "Clip");
  EXPECT_EQ(clip->params, (std::vector<float>{0.0f, 6.0f}));
  EXPECT_EQ(g.nodes[0].outputs[0], "c");
  std::optional<FusedActivation> leaky = GetFusedActivation(g.nodes[1]);
  ASSERT_TRUE(leaky);
  EXPECT_EQ(leaky->type, "LeakyRelu");
  EXPECT_FLOAT_EQ(ApplyFusedActivation(*leaky, -4.0f), -1.0f);
  EXPECT_EQ(g.FindTensor("g"), nullptr);
}

TEST(Passes, FuseActivationsLeavesSharedAndGraphOutputs) {
  GraphBuilder b;
  b.Input("x", {1, 4})
      .Op("Add", {"x", "x"}, "a", {1, 4})
      .Op("Relu", {"a"}, "r", {1, 4})
      .Op("Mul", {"x", "x"}, "m", {1, 4})
      .Op("Sigmoid", {"m"}, "s", {1, 4})
      .Output("a")
      .Output("r")
      .Output("s")
      .Output("m");
  EXPECT_EQ(*FuseActivations(b.graph()), 0);
}

TEST(Passes, FuseHardSwishPattern) {
  GraphBuilder b;
  b.Input("x", {1, 4, 2, 2})
      .Constant("w", {4, 4, 1, 1}, std::vector<float>(16, 0.5f))
      .Op("Conv", {"x", "w"}, "c", {1, 4, 2, 2})
      .Op("HardSigmoid", {"c"}, "h", {1, 4, 2, 2}, {{"alpha", 1.0f / 6.0f}, {"beta", 0.5f}})
      .Op("Mul", {"c", "h"}, "y", {1, 4, 2, 2})
      .Output("y");
  Graph& g = b.graph();
  ASSERT_EQ(*FuseHardSwishPattern(g), 1);
  ASSERT_EQ(Ops(g), std::vector<std::string>{"Conv"});
  EXPECT_EQ(GetFusedActivation(g.nodes[0])->type, "HardSwish");
  EXPECT_EQ(g.nodes[0].outputs[0], "y");
  EXPECT_FLOAT_EQ(ApplyFusedActivation(*GetFusedActivation(g.nodes[0]), 1.5f), 1.5f * (1.5f / 6.0f + 0.5f));
}

TEST(Passes, HardSigmoidGateOfAnotherTensorIsNotHardSwish) {
  // Squeeze-excite: y = x * HardSigmoid(f(x)); not a HardSwish.
  GraphBuilder b;
  b.Input("x", {1, 4, 2, 2})
      .Constant("w", {4, 4, 1, 1}, std::vector<float>(16, 0.5f))
      .Op("Conv", {"x", "w"}, "c", {1, 4, 2, 2})
      .Op("HardSigmoid", {"c"}, "h", {1, 4, 2, 2}, {{"alpha", 1.0f / 6.0f}, {"beta", 0.5f}})
      .Op("Mul", {"x", "h"}, "y", {1, 4, 2, 2})
      .Output("y");
  EXPECT_EQ(*FuseHardSwishPattern(b.graph()), 0);
}

TEST(Passes, MarkFreeReshapes) {
  GraphBuilder b;
  b.Input("x", {1, 64, 1, 1})
      .IntConstant("s", {2}, {1, 64})
      .IntConstant("t", {4}, {1, 16, 2, 2})
      .Op("Flatten", {"x"}, "f", {1, 64})             // [1,64,1,1] -> [1,64]: same layout
      .Op("Reshape", {"f", "t"}, "r", {1, 16, 2, 2})  // channels change: a copy
      .Op("Unsqueeze", {"f"}, "u", {1, 64, 1})        // [1,64,1]: same layout
      .Output("r")
      .Output("u");
  Graph& g = b.graph();
  ASSERT_EQ(*MarkFreeReshapes(g), 2);
  EXPECT_TRUE(g.nodes[0].HasAttribute(kAliasAttr));
  EXPECT_FALSE(g.nodes[1].HasAttribute(kAliasAttr));
  EXPECT_TRUE(g.nodes[2].HasAttribute(kAliasAttr));
}

TEST(Passes, FoldReshapesIntoTransposesTurnsAChannelShuffleIntoOneTranspose) {
  GraphBuilder b;
  b.Input("x", {1, 12, 5, 3})
      .IntConstant("split", {5}, {1, 3, 4, 5, 3})
      .IntConstant("merge", {4}, {1, 12, 5, 3})
      .Op("Relu", {"x"}, "r", {1, 12, 5, 3})
      .Op("Reshape", {"r", "split"}, "s", {1, 3, 4, 5, 3})
      .Op("Transpose", {"s"}, "t", {1, 4, 3, 5, 3}, {{"perm", std::vector<int64_t>{0, 2, 1, 3, 4}}})
      .Op("Reshape", {"t", "merge"}, "y", {1, 12, 5, 3})
      .Output("y");
  Graph& g = b.graph();
  ASSERT_TRUE(RunDefaultPasses(g).ok());
  ASSERT_EQ(Ops(g), (std::vector<std::string>{"Relu", "Transpose"}));
  const Node& t = g.nodes[1];
  EXPECT_EQ(t.inputs, std::vector<std::string>{"r"});
  EXPECT_EQ(t.outputs, std::vector<std::string>{"y"});
  EXPECT_EQ(t.GetInts(kReadInputAsAttr), (std::vector<int64_t>{1, 3, 4, 5, 3}));
  EXPECT_EQ(t.GetInts(kWriteOutputAsAttr), (std::vector<int64_t>{1, 12, 5, 3}));
  EXPECT_EQ(g.FindTensor("s"), nullptr);
  EXPECT_EQ(g.FindTensor("split"), nullptr);
}

// x [1, 12, 5, 3] -> Relu r -> y, r's channels shuffled in two groups (as
// ShuffleNet v2 writes it: Reshape, Transpose, Reshape), with the int
// constants the Slices after it take ("i0", "i1", ... "i12").
GraphBuilder ChannelShuffle() {
  GraphBuilder b;
  b.Input("x", {1, 12, 5, 3})
      .IntConstant("split", {5}, {1, 2, 6, 5, 3})
      .IntConstant("merge", {4}, {1, 12, 5, 3});
  for (int64_t i : {0, 1, 2, 3, 6, 12}) b.IntConstant("i" + std::to_string(i), {1}, {i});
  b.Op("Relu", {"x"}, "r", {1, 12, 5, 3})
      .Op("Reshape", {"r", "split"}, "s", {1, 2, 6, 5, 3})
      .Op("Transpose", {"s"}, "t", {1, 6, 2, 5, 3}, {{"perm", std::vector<int64_t>{0, 2, 1, 3, 4}}})
      .Op("Reshape", {"t", "merge"}, "y", {1, 12, 5, 3});
  return b;
}

// ShuffleNet v2's unit tail: shuffle the channels, then split them. The
// Slices become Gathers of the unshuffled tensor and the shuffle goes.
TEST(Passes, ChannelShuffleFoldsIntoTheSlicesReadingIt) {
  GraphBuilder b = ChannelShuffle();
  b.Op("Slice", {"y", "i0", "i6", "i1"}, "a", {1, 6, 5, 3})
      .Op("Slice", {"y", "i6", "i12", "i1"}, "b", {1, 6, 5, 3})
      .Op("Slice", {"y", "i3", "i12", "i1", "i2"}, "c", {1, 5, 5, 3})  // channels 3, 5, ... 11
      .Output("a")
      .Output("b")
      .Output("c");
  Graph& g = b.graph();
  const PassRun run = RunDefaultPassesOn(g);
  ASSERT_TRUE(run.status.ok()) << run.status.ToString();
  EXPECT_EQ(run.stats.channel_transposes_folded, 1);
  ASSERT_EQ(Ops(g), (std::vector<std::string>{"Relu", "Gather", "Gather", "Gather"}));
  // Shuffled channel 2k is channel k, 2k + 1 is channel 6 + k.
  const Node& a = g.nodes[1];
  EXPECT_EQ(a.inputs[0], "r");
  EXPECT_EQ(a.outputs, std::vector<std::string>{"a"});
  EXPECT_EQ(g.FindTensor(a.inputs[1])->data.ToInt64s(), (std::vector<int64_t>{0, 6, 1, 7, 2, 8}));
  EXPECT_EQ(g.FindTensor(g.nodes[2].inputs[1])->data.ToInt64s(), (std::vector<int64_t>{3, 9, 4, 10, 5, 11}));
  EXPECT_EQ(g.FindTensor(g.nodes[3].inputs[1])->data.ToInt64s(), (std::vector<int64_t>{7, 8, 9, 10, 11}));
  EXPECT_EQ(g.FindTensor("y"), nullptr);
  const TensorData x = Ramp({1, 12, 5, 3}, 0.25f);
  for (const char* out : {"a", "b", "c"}) {
    EXPECT_EQ(RunOnCpu(g, x, out), RunOnCpu(run.before, x, out)) << out;
  }
}

TEST(Passes, ChannelShuffleStaysWhereAReaderIsNoChannelSlice) {
  for (const std::string other : {"Neg", "SliceH"}) {
    SCOPED_TRACE(other);
    GraphBuilder b = ChannelShuffle();
    b.Op("Slice", {"y", "i0", "i6", "i1"}, "a", {1, 6, 5, 3});
    if (other == "Neg") {
      b.Op("Neg", {"y"}, "n", {1, 12, 5, 3});
    } else {
      b.Op("Slice", {"y", "i0", "i2", "i2"}, "n", {1, 12, 2, 3});  // along H (axis 2)
    }
    b.Output("a").Output("n");
    Graph& g = b.graph();
    const PassRun run = RunDefaultPassesOn(g);
    ASSERT_TRUE(run.status.ok()) << run.status.ToString();
    EXPECT_EQ(run.stats.channel_transposes_folded, 0);
    EXPECT_EQ(Ops(g), (std::vector<std::string>{"Relu", "Transpose", "Slice", other == "Neg" ? "Neg" : "Slice"}));
  }
}

TEST(Passes, FoldReshapesIntoTransposesLeavesSharedAndFreeReshapes) {
  GraphBuilder b;
  b.Input("x", {1, 12, 5, 3})
      .IntConstant("split", {5}, {1, 3, 4, 5, 3})
      .Op("Reshape", {"x", "split"}, "s", {1, 3, 4, 5, 3})
      .Op("Transpose", {"s"}, "t", {1, 4, 3, 5, 3}, {{"perm", std::vector<int64_t>{0, 2, 1, 3, 4}}})
      .Op("Neg", {"s"}, "n", {1, 3, 4, 5, 3})  // s is read twice: its reshape stays
      .Op("Flatten", {"t"}, "f", {1, 180})     // t is a graph output too
      .Output("t")
      .Output("n")
      .Output("f");
  Graph& g = b.graph();
  ASSERT_EQ(*FoldReshapesIntoTransposes(g), 0);
  EXPECT_EQ(Ops(g), (std::vector<std::string>{"Reshape", "Transpose", "Neg", "Flatten"}));
}

// A Conv, a learnable scale (scalar, first operand) and shift (per channel),
// then HardSwish as x * Clip(x + 3, 0, 6) / 6: one Conv with HardSwish fused,
// computing what the seven nodes did.
TEST(Passes, ScaleShiftAndHardSwishFormulaFoldIntoTheConv) {
  GraphBuilder b;
  b.Input("x", {1, 3, 4, 5})
      .Constant("w", {2, 3, 1, 1}, {0.5f, -1.0f, 2.0f, 1.5f, 0.25f, -0.75f})
      .Constant("bias", {2}, {0.1f, -0.2f})
      .Constant("s", {1}, {1.75f})
      .Constant("t", {1, 2, 1, 1}, {0.5f, -3.0f})
      .Constant("three", {}, {3.0f})
      .Constant("six", {}, {6.0f})
      .Op("Conv", {"x", "w", "bias"}, "c", {1, 2, 4, 5})
      .Op("Mul", {"s", "c"}, "m", {1, 2, 4, 5})
      .Op("Add", {"m", "t"}, "a", {1, 2, 4, 5})
      .Op("Add", {"a", "three"}, "a3", {1, 2, 4, 5})
      .Op("Clip", {"a3"}, "cl", {1, 2, 4, 5}, {{"min", 0.0f}, {"max", 6.0f}})
      .Op("Mul", {"a", "cl"}, "p", {1, 2, 4, 5})
      .Op("Div", {"p", "six"}, "y", {1, 2, 4, 5})
      .Output("y");
  b.graph().opset = 9;
  const Graph before = b.graph();
  Graph& g = b.graph();
  PassStats stats;
  ASSERT_TRUE(RunDefaultPasses(g, &stats).ok());
  EXPECT_EQ(stats.scale_shifts_folded, 2);
  EXPECT_EQ(stats.hardswish_formulas_fused, 1);
  ASSERT_EQ(Ops(g), std::vector<std::string>{"Conv"});
  EXPECT_EQ(GetFusedActivation(g.nodes[0])->type, "HardSwish");
  EXPECT_EQ(g.nodes[0].outputs, std::vector<std::string>{"y"});
  const TensorData x = Ramp({1, 3, 4, 5}, 0.09f);
  ExpectClose(RunOnCpu(g, x, "y"), RunOnCpu(before, x, "y"));
}

// A ConvTranspose's weights are [C_in, C_out / group, kH, kW]: the factors
// of output channel m must scale column m of its group's block, not row m.
// Paddle's export order (bias Add, then BN) and a Mul, with two groups of
// unequal factors, all fold; the CPU reference gives the same output.
TEST(Passes, ScaleShiftAndBatchNormFoldIntoAGroupedConvTranspose) {
  std::vector<float> w(4 * 3 * 2 * 2);
  for (size_t i = 0; i < w.size(); ++i) w[i] = 0.1f * static_cast<float>(i % 11) - 0.4f;
  GraphBuilder b;
  b.Input("x", {1, 4, 3, 5})
      .Constant("w", {4, 3, 2, 2}, w)  // 2 groups: 2 input channels -> 3 output channels each
      .Constant("bias", {1, 6, 1, 1}, {0.5f, -1.0f, 0.25f, 2.0f, -0.5f, 1.5f})
      .Constant("scale", {6}, {2.0f, 3.0f, 0.5f, -1.0f, 1.25f, 4.0f})
      .Constant("shift", {6}, {0.1f, 0.2f, 0.3f, 0.4f, 0.5f, 0.6f})
      .Constant("mean", {6}, {1.0f, -1.0f, 0.0f, 0.5f, -0.5f, 2.0f})
      .Constant("var", {6}, {4.0f, 9.0f, 1.0f, 0.25f, 2.0f, 16.0f})
      .Constant("s", {6, 1, 1}, {1.5f, -2.0f, 0.75f, 3.0f, 1.0f, -0.5f})
      .Op("ConvTranspose", {"x", "w"}, "c", {1, 6, 6, 10},
          {{"group", int64_t{2}}, {"strides", std::vector<int64_t>{2, 2}}})
      .Op("Add", {"c", "bias"}, "a", {1, 6, 6, 10})
      .Op("BatchNormalization", {"a", "scale", "shift", "mean", "var"}, "n", {1, 6, 6, 10})
      .Op("Mul", {"n", "s"}, "y", {1, 6, 6, 10})
      .Output("y");
  Graph& g = b.graph();
  const PassRun run = RunDefaultPassesOn(g);
  ASSERT_TRUE(run.status.ok()) << run.status.ToString();
  EXPECT_EQ(run.stats.batchnorms_folded, 1);
  EXPECT_EQ(run.stats.scale_shifts_folded, 2);
  ASSERT_EQ(Ops(g), std::vector<std::string>{"ConvTranspose"});
  const TensorData x = Ramp({1, 4, 3, 5}, 0.07f);
  ExpectClose(RunOnCpu(g, x, "y"), RunOnCpu(run.before, x, "y"));
}

// What must stay: a factor that varies along W, a shared Conv output, a
// Clip to other bounds, and a HardSwish whose x is read a third time.
TEST(Passes, ScaleShiftAndHardSwishFormulaLeaveWhatDoesNotMatch) {
  GraphBuilder b;
  b.Input("x", {1, 2, 3, 4})
      .Constant("w", {2, 2, 1, 1}, {1.0f, 2.0f, 3.0f, 4.0f})
      .Constant("along_w", {4}, {1.0f, 2.0f, 3.0f, 4.0f})
      .Constant("three", {}, {3.0f})
      .Constant("six", {}, {6.0f})
      .Op("Conv", {"x", "w"}, "c", {1, 2, 3, 4})
      .Op("Mul", {"c", "along_w"}, "m", {1, 2, 3, 4})  // varies along W
      .Op("Conv", {"m", "w"}, "c2", {1, 2, 3, 4})
      .Op("Add", {"c2", "three"}, "a3", {1, 2, 3, 4})
      .Op("Clip", {"a3"}, "cl", {1, 2, 3, 4}, {{"min", 0.0f}, {"max", 5.0f}})  // not 6
      .Op("Mul", {"c2", "cl"}, "p", {1, 2, 3, 4})
      .Op("Div", {"p", "six"}, "y", {1, 2, 3, 4})
      .Output("y");
  b.graph().opset = 9;
  Graph& g = b.graph();
  EXPECT_EQ(*FoldScaleShiftIntoConv(g), 0);
  EXPECT_EQ(*FuseHardSwishFormula(g), 0);
  EXPECT_EQ(g.nodes.size(), 7u);
}

// A scale and shift after an activation: the producer keeps its
// activation and applies them after it; the same results on the CPU.
TEST(Passes, FuseOutputScaleShiftAfterAFusedActivation) {
  GraphBuilder b;
  b.Input("x", {1, 2, 3, 4})
      .Constant("k", {1, 2, 3, 4}, std::vector<float>(24, 0.5f))
      .Constant("s", {1}, {0.25f})
      .Constant("t", {}, {-1.5f})
      .Op("Add", {"x", "k"}, "a", {1, 2, 3, 4})
      .Op("Relu", {"a"}, "r", {1, 2, 3, 4})
      .Op("Mul", {"s", "r"}, "m", {1, 2, 3, 4})
      .Op("Add", {"m", "t"}, "y", {1, 2, 3, 4})
      .Output("y");
  Graph& g = b.graph();
  const PassRun run = RunDefaultPassesOn(g);
  ASSERT_TRUE(run.status.ok()) << run.status.ToString();
  EXPECT_EQ(run.stats.output_scale_shifts_fused, 2);
  ASSERT_EQ(Ops(g), std::vector<std::string>{"Add"});
  EXPECT_EQ(GetFusedActivation(g.nodes[0])->type, "Relu");
  EXPECT_FLOAT_EQ(g.nodes[0].GetFloat(kFusedOutputScaleAttr, 0), 0.25f);
  EXPECT_FLOAT_EQ(g.nodes[0].GetFloat(kFusedOutputShiftAttr, 0), -1.5f);
  const TensorData x = Ramp({1, 2, 3, 4}, 0.37f);
  ExpectClose(RunOnCpu(g, x, "y"), RunOnCpu(run.before, x, "y"));
  // An activation after the scale would apply in the wrong order: refused.
  EXPECT_FALSE(AcceptsFusedActivation(g.nodes[0]));
}

TEST(Passes, RemoveDeadNodesAndUnusedTensors) {
  GraphBuilder b;
  b.Input("x", {4})
      .Constant("unused", {1}, {1.0f})
      .Op("Relu", {"x"}, "r", {4})
      .Op("Sigmoid", {"r"}, "dead", {4})
      .Op("Tanh", {"dead"}, "dead2", {4})
      .Op("Neg", {"r"}, "y", {4})
      .Output("y");
  Graph& g = b.graph();
  ASSERT_EQ(*RemoveDeadNodes(g), 2);
  EXPECT_EQ(Ops(g), (std::vector<std::string>{"Relu", "Neg"}));
  EXPECT_EQ(g.FindTensor("unused"), nullptr);
  EXPECT_EQ(g.FindTensor("dead"), nullptr);
  EXPECT_NE(g.FindTensor("x"), nullptr);
}

TEST(Passes, DefaultPipelineOnConvBnReluFlatten) {
  GraphBuilder b;
  b.Input("x", {1, 2, 1, 1})
      .Constant("w", {4, 2, 1, 1}, std::vector<float>(8, 1.0f))
      .Constant("p", {4}, {1, 1, 1, 1})
      .Op("Identity", {"x"}, "xi", {1, 2, 1, 1})
      .Op("Conv", {"xi", "w"}, "c", {1, 4, 1, 1})
      .Op("BatchNormalization", {"c", "p", "p", "p", "p"}, "bn", {1, 4, 1, 1})
      .Op("Relu", {"bn"}, "r", {1, 4, 1, 1})
      .Op("Flatten", {"r"}, "f", {1, 4})
      .Op("Softmax", {"f"}, "y", {1, 4})
      .Output("y");
  Graph& g = b.graph();
  PassStats stats;
  ASSERT_TRUE(RunDefaultPasses(g, &stats).ok());
  EXPECT_EQ(Ops(g), (std::vector<std::string>{"Conv", "Flatten", "Softmax"}));
  EXPECT_EQ(stats.identities_removed, 1);
  EXPECT_EQ(stats.batchnorms_folded, 1);
  EXPECT_EQ(stats.activations_fused, 1);
  EXPECT_EQ(stats.free_reshapes, 1);
  EXPECT_EQ(GetFusedActivation(g.nodes[0])->type, "Relu");
  EXPECT_EQ(g.FindTensor("p"), nullptr);  // BN parameters went with the BN
}

}  // namespace
}  // namespace glpool
