// The passes that fuse a written-out formula or a trailing op into one
// node (passes.h): Swish, squeeze-and-excitation gates, MatMul biases and
// LayerNormalization, each computing on the CPU what the nodes did.
#include <gtest/gtest.h>

#include "gpu_backend/graph/fused_activation.h"
#include "gpu_backend/graph/passes/passes.h"
#include "graph_builder.h"
#include "passes_test_util.h"

namespace glpool {
namespace {

using testing_util::ExpectClose;
using testing_util::PassRun;
using testing_util::RunDefaultPassesOn;
using testing_util::GraphBuilder;
using testing_util::Ops;
using testing_util::Ramp;
using testing_util::RunOnCpu;

// x * Sigmoid(x) after a Conv (EfficientNet's SiLU, either operand order):
// one Conv with Swish fused, computing what the three nodes did; a sigmoid
// gate of another tensor stays.
TEST(Passes, FuseSwishPattern) {
  GraphBuilder b;
  b.Input("x", {1, 4, 2, 3})
      .Constant("w", {4, 4, 1, 1}, {0.5f, -1.0f, 0.25f, 2.0f, 1.0f, 0.5f, -0.5f, 0.75f, -2.0f, 1.5f, 0.1f, 0.2f,
                                    0.3f, -0.4f, 0.5f, -0.6f})
      .Op("Conv", {"x", "w"}, "c", {1, 4, 2, 3})
      .Op("Sigmoid", {"c"}, "s", {1, 4, 2, 3})
      .Op("Mul", {"s", "c"}, "y", {1, 4, 2, 3})
      .Op("Conv", {"y", "w"}, "d", {1, 4, 2, 3})
      .Op("Sigmoid", {"d"}, "t", {1, 4, 2, 3})
      .Op("Mul", {"y", "t"}, "z", {1, 4, 2, 3})  // a gate of another tensor
      .Output("z");
  Graph& g = b.graph();
  const PassRun run = RunDefaultPassesOn(g);
  ASSERT_TRUE(run.status.ok()) << run.status.ToString();
  EXPECT_EQ(run.stats.swish_fused, 1);
  // The second Sigmoid, its Conv's only reader, fuses as itself.
  ASSERT_EQ(Ops(g), (std::vector<std::string>{"Conv", "Conv", "Mul"}));
  EXPECT_EQ(GetFusedActivation(g.nodes[0])->type, "Swish");
  EXPECT_EQ(GetFusedActivation(g.nodes[1])->type, "Sigmoid");
  EXPECT_EQ(g.nodes[0].outputs[0], "y");
  const TensorData x = Ramp({1, 4, 2, 3}, 0.33f);
  ExpectClose(RunOnCpu(g, x, "z"), RunOnCpu(run.before, x, "z"));
}

// x * 1, 1 * x and x / 1 go (PP-OCRv4 writes its Swish as x * Sigmoid(x *
// 1), which then fuses into the Conv); x - 0 as a graph output of a graph
// input, a 1 that broadcasts x to a larger shape, and x + 0 (-0 + 0 is +0)
// stay; a graph output keeps its name, its producer taking it over.
TEST(Passes, NeutralArithmeticGoes) {
  const Shape s = {1, 4, 2, 3};
  GraphBuilder b;
  b.Input("x", s)
      .Constant("w", {4, 4, 1, 1}, {0.5f, -1.0f, 0.25f, 2.0f, 1.0f, 0.5f, -0.5f, 0.75f, -2.0f, 1.5f, 0.1f, 0.2f,
                                    0.3f, -0.4f, 0.5f, -0.6f})
      .Constant("one", {}, {1.0f})
      .Constant("zero", {1}, {0.0f})
      .Constant("ones", s, std::vector<float>(24, 1.0f))
      .Op("Conv", {"x", "w"}, "c", s)
      .Op("Mul", {"c", "one"}, "m", s)
      .Op("Sigmoid", {"m"}, "sig", s)
      .Op("Mul", {"c", "sig"}, "y", s)
      .Op("Div", {"x", "one"}, "d", s)
      .Op("Neg", {"d"}, "n1", s)
      .Op("Sub", {"x", "zero"}, "z", s)
      .Op("GlobalAveragePool", {"x"}, "v", {1, 4, 1, 1})
      .Op("Mul", {"v", "ones"}, "e", s)
      .Op("Add", {"x", "zero"}, "a", s)
      .Op("Relu", {"x"}, "q", s)
      .Op("Mul", {"one", "q"}, "q1", s)
      .Output("y")
      .Output("n1")
      .Output("z")
      .Output("e")
      .Output("a")
      .Output("q1");
  Graph& g = b.graph();
  const PassRun run = RunDefaultPassesOn(g);
  ASSERT_TRUE(run.status.ok()) << run.status.ToString();
  EXPECT_EQ(run.stats.swish_fused, 1);
  EXPECT_EQ(Ops(g), (std::vector<std::string>{"Conv", "Neg", "Sub", "GlobalAveragePool", "Mul", "Add", "Relu"}));
  EXPECT_EQ(GetFusedActivation(g.nodes[0])->type, "Swish");
  EXPECT_EQ(g.nodes[1].inputs[0], "x");
  EXPECT_EQ(g.nodes[6].outputs[0], "q1");
  const TensorData x = Ramp(s, 0.23f);
  for (const char* out : {"y", "n1", "z", "e", "a", "q1"}) ExpectClose(RunOnCpu(g, x, out), RunOnCpu(run.before, x, out));
}

// A squeeze-and-excitation block's end, x * gate (gate [1, C, 1, 1], either
// operand order) read by a Conv: the Conv takes x and the gate as its
// fourth input, computing what the Mul and the Conv did. A product read
// twice, or by a Conv with runtime weights, stays.
TEST(Passes, ChannelGateFusesIntoTheConv) {
  GraphBuilder b;
  b.Input("x", {1, 4, 3, 5})
      .Constant("w", {3, 4, 1, 1}, {0.5f, -1.0f, 0.25f, 2.0f, 1.0f, 0.5f, -0.5f, 0.75f, -2.0f, 1.5f, 0.1f, 0.2f})
      .Op("GlobalAveragePool", {"x"}, "pooled", {1, 4, 1, 1})
      .Op("Sigmoid", {"pooled"}, "gate", {1, 4, 1, 1})
      .Op("Mul", {"gate", "x"}, "gated", {1, 4, 3, 5})
      .Op("Conv", {"gated", "w"}, "y", {1, 3, 3, 5})
      .Op("Mul", {"x", "gate"}, "twice", {1, 4, 3, 5})
      .Op("Conv", {"twice", "w"}, "z", {1, 3, 3, 5})
      .Op("Neg", {"twice"}, "u", {1, 4, 3, 5})
      .Output("y")
      .Output("z")
      .Output("u");
  Graph& g = b.graph();
  const PassRun run = RunDefaultPassesOn(g);
  ASSERT_TRUE(run.status.ok()) << run.status.ToString();
  EXPECT_EQ(run.stats.channel_gates_fused, 1);
  EXPECT_EQ(Ops(g), (std::vector<std::string>{"GlobalAveragePool", "Sigmoid", "Conv", "Mul", "Conv", "Neg"}));
  EXPECT_EQ(g.nodes[2].inputs, (std::vector<std::string>{"x", "w", "", "gate"}));
  const TensorData x = Ramp({1, 4, 3, 5}, 0.29f);
  for (const char* out : {"y", "z", "u"}) ExpectClose(RunOnCpu(g, x, out), RunOnCpu(run.before, x, out));
}

// Residual connections, Add(conv, skip) with skip of the Conv output's
// shape (either operand order, the Add's Relu coming along): the Conv takes
// the Add's place with the skip as its fifth input, computing what the
// nodes did. Of two Convs the later fuses; a Conv with its own activation,
// a broadcast skip and a Conv output read twice stay.
TEST(Passes, ResidualAddFusesIntoTheConv) {
  const std::vector<float> w = {0.5f, -1.0f, 0.25f, 2.0f, 1.0f, 0.5f, -0.5f, 0.75f,
                                -2.0f, 1.5f, 0.1f, 0.2f, 0.3f, -0.4f, 0.5f, -0.6f};
  const Shape s = {1, 4, 3, 5};
  GraphBuilder b;
  b.Input("x", s)
      .Constant("w", {4, 4, 1, 1}, w)
      .Op("Conv", {"x", "w"}, "c1", s)
      .Op("Add", {"x", "c1"}, "a1", s)
      .Op("Relu", {"a1"}, "y1", s)
      .Op("Conv", {"y1", "w"}, "c2", s)
      .Op("Conv", {"x", "w"}, "c3", s)
      .Op("Relu", {"c3"}, "r3", s)
      .Op("Conv", {"y1", "w"}, "c4", s)
      .Op("Add", {"c4", "r3"}, "z", s)  // c4 fuses; c2 is the skip
      .Op("Add", {"z", "c2"}, "z2", s)  // c2's Add: a Conv output and z
      .Op("GlobalAveragePool", {"x"}, "pooled", {1, 4, 1, 1})
      .Op("Conv", {"x", "w"}, "c5", s)
      .Op("Add", {"c5", "pooled"}, "t", s)  // broadcast: stays
      .Op("Conv", {"x", "w"}, "c6", s)
      .Op("Add", {"c6", "x"}, "v", s)  // c6 read twice: stays
      .Op("Neg", {"c6"}, "u", s)
      .Output("z2")
      .Output("t")
      .Output("v")
      .Output("u");
  Graph& g = b.graph();
  const PassRun run = RunDefaultPassesOn(g);
  ASSERT_TRUE(run.status.ok()) << run.status.ToString();
  EXPECT_EQ(run.stats.residual_adds_fused, 3);
  EXPECT_EQ(Ops(g), (std::vector<std::string>{"Conv", "Conv", "Conv", "Conv", "GlobalAveragePool", "Conv", "Add",
                                              "Conv", "Add", "Neg"}));
  EXPECT_EQ(g.nodes[0].inputs, (std::vector<std::string>{"x", "w", "", "", "x"}));
  EXPECT_EQ(g.nodes[0].outputs[0], "y1");
  EXPECT_EQ(GetFusedActivation(g.nodes[0])->type, "Relu");
  const TensorData x = Ramp(s, 0.31f);
  for (const char* out : {"z2", "t", "v", "u"}) ExpectClose(RunOnCpu(g, x, out), RunOnCpu(run.before, x, out));
}

// A squeeze-and-excitation gate, GlobalAveragePool -> 1x1 Conv -> Relu ->
// 1x1 Conv -> HardSigmoid, then x * gate into a Conv: four tasks, the
// activations fused into their convs and the gate into the last Conv
// (which loads X scaled). The pool and the two small convs stay apart: as
// one work group per image they ran on one llvmpipe thread, 12x slower than
// three dispatches over many groups (mobilenet_v3_large's 960-channel gates).
TEST(Passes, SqueezeExciteGateRunsAsFourTasks) {
  const std::vector<float> w1 = {0.5f, -1.0f, 0.25f, 2.0f, 1.0f, 0.5f, -0.5f, 0.75f};  // [2, 4, 1, 1]
  const std::vector<float> w2 = {1.0f, -0.5f, 0.25f, 0.5f, -2.0f, 1.5f, 0.1f, 0.2f};   // [4, 2, 1, 1]
  const Shape s = {1, 4, 3, 5};
  GraphBuilder b;
  b.Input("x", s)
      .Constant("w1", {2, 4, 1, 1}, w1)
      .Constant("b1", {2}, {0.1f, -0.2f})
      .Constant("w2", {4, 2, 1, 1}, w2)
      .Constant("w", {4, 4, 1, 1}, std::vector<float>(16, 0.25f))
      .Op("GlobalAveragePool", {"x"}, "p", {1, 4, 1, 1})
      .Op("Conv", {"p", "w1", "b1"}, "h", {1, 2, 1, 1})
      .Op("Relu", {"h"}, "hr", {1, 2, 1, 1})
      .Op("Conv", {"hr", "w2"}, "e", {1, 4, 1, 1})
      .Op("HardSigmoid", {"e"}, "gate", {1, 4, 1, 1})
      .Op("Mul", {"x", "gate"}, "gated", s)
      .Op("Conv", {"gated", "w"}, "y", s)
      .Output("y");
  b.graph().nodes[4].attributes["alpha"] = 1.0f / 6.0f;
  Graph& g = b.graph();
  const PassRun run = RunDefaultPassesOn(g);
  ASSERT_TRUE(run.status.ok()) << run.status.ToString();
  EXPECT_EQ(Ops(g), (std::vector<std::string>{"GlobalAveragePool", "Conv", "Conv", "Conv"}));
  EXPECT_EQ(GetFusedActivation(g.nodes[1])->type, "Relu");
  EXPECT_EQ(GetFusedActivation(g.nodes[2])->type, "HardSigmoid");
  EXPECT_EQ(g.nodes[3].inputs, (std::vector<std::string>{"x", "w", "", "gate"}));
  const TensorData x = Ramp(s, 0.31f);
  ExpectClose(RunOnCpu(g, x, "y"), RunOnCpu(run.before, x, "y"));
}

// A linear layer as MatMul then Add of a bias (either operand order), then
// Relu: one MatMul with the bias as its third input and Relu fused,
// computing what the three nodes did. A bias that varies along rows, and a
// product read twice, stay.
TEST(Passes, BiasAddFoldsIntoMatMul) {
  GraphBuilder b;
  b.Input("x", {1, 4, 6})
      .Constant("w", {6, 5}, std::vector<float>(30, 0.25f))
      .Constant("bias", {1, 5}, {0.5f, -1.0f, 2.0f, -3.0f, 1.5f})
      .Constant("rows", {4, 1}, {1.0f, 2.0f, 3.0f, 4.0f})
      .Op("MatMul", {"x", "w"}, "p", {1, 4, 5})
      .Op("Add", {"bias", "p"}, "s", {1, 4, 5})
      .Op("Relu", {"s"}, "y", {1, 4, 5})
      .Op("MatMul", {"x", "w"}, "q", {1, 4, 5})
      .Op("Add", {"q", "rows"}, "z", {1, 4, 5})
      .Op("MatMul", {"x", "w"}, "r", {1, 4, 5})
      .Op("Add", {"r", "bias"}, "t", {1, 4, 5})
      .Op("Neg", {"r"}, "u", {1, 4, 5})
      .Output("y")
      .Output("z")
      .Output("t")
      .Output("u");
  Graph& g = b.graph();
  const PassRun run = RunDefaultPassesOn(g);
  ASSERT_TRUE(run.status.ok()) << run.status.ToString();
  EXPECT_EQ(run.stats.matmul_biases_folded, 1);
  EXPECT_EQ(Ops(g), (std::vector<std::string>{"MatMul", "MatMul", "Add", "MatMul", "Add", "Neg"}));
  EXPECT_EQ(g.nodes[0].inputs, (std::vector<std::string>{"x", "w", "bias"}));
  EXPECT_EQ(GetFusedActivation(g.nodes[0])->type, "Relu");
  const TensorData x = Ramp({1, 4, 6}, 0.21f);
  for (const char* out : {"y", "z", "t", "u"}) ExpectClose(RunOnCpu(g, x, out), RunOnCpu(run.before, x, out));
}

// LayerNormalization written out as an opset-9 export writes it (PP-OCRv4
// rec's five): one LayerNormalization node over the last axis, computing
// what the nine nodes did; the same with the square as d * d, no scale or
// bias, and two trailing axes (opset 18's axes input).
TEST(Passes, LayerNormFormulaBecomesOneNode) {
  const Shape shape = {1, 6, 10};
  for (int variant = 0; variant < 3; ++variant) {
    SCOPED_TRACE("variant " + std::to_string(variant));
    GraphBuilder b;
    const Shape stat = variant == 2 ? Shape{1, 1, 1} : Shape{1, 6, 1};
    const std::map<std::string, AttributeValue> axes =
        variant == 2 ? std::map<std::string, AttributeValue>{} : std::map<std::string, AttributeValue>{{"axes", std::vector<int64_t>{-1}}};
    std::vector<std::string> mean_inputs = {"x"}, var_inputs = {"sq"};
    b.Input("x", shape).Constant("two", {}, {2.0f}).Constant("eps", {1}, {1e-5f});
    b.Constant("gamma", {10}, {1.0f, 0.5f, 2.0f, -1.0f, 0.25f, 1.5f, 3.0f, 0.75f, -0.5f, 1.25f});
    b.Constant("beta", {1, 1, 10}, {0.1f, 0.2f, 0.3f, 0.4f, 0.5f, -0.1f, -0.2f, -0.3f, -0.4f, -0.5f});
    if (variant == 2) {
      b.IntConstant("axes", {2}, {1, 2});
      mean_inputs.push_back("axes");
      var_inputs.push_back("axes");
    }
    b.Op("ReduceMean", mean_inputs, "mean", stat, axes)
        .Op("Sub", {"x", "mean"}, "d", shape)
        .Op(variant == 1 ? "Mul" : "Pow", {"d", variant == 1 ? "d" : "two"}, "sq", shape)
        .Op("ReduceMean", var_inputs, "var", stat, axes)
        .Op("Add", {"var", "eps"}, "ve", stat)
        .Op("Sqrt", {"ve"}, "std", stat)
        .Op("Div", {"d", "std"}, "n", shape);
    std::string y = "n";
    if (variant != 1) {
      b.Op("Mul", {"n", "gamma"}, "scaled", shape).Op("Add", {"beta", "scaled"}, "y", shape);
      y = "y";
    }
    b.Output(y);
    Graph& g = b.graph();
    const PassRun run = RunDefaultPassesOn(g, variant == 2 ? 18 : 9);
    ASSERT_TRUE(run.status.ok()) << run.status.ToString();
    EXPECT_EQ(run.stats.layer_norm_formulas_fused, 1);
    ASSERT_EQ(Ops(g), std::vector<std::string>{"LayerNormalization"});
    EXPECT_EQ(g.nodes[0].GetInt("axis", 0), variant == 2 ? 1 : 2);
    EXPECT_EQ(g.nodes[0].outputs, std::vector<std::string>{y});
    const TensorData x = Ramp(shape, 0.37f);
    ExpectClose(RunOnCpu(g, x, y), RunOnCpu(run.before, x, y));
  }
}

// What must stay: the centred values read a third time, a mean over a
// leading axis, and a scale that varies along another axis (it stays a Mul
// after the fused node).
TEST(Passes, LayerNormFormulaLeavesWhatDoesNotMatch) {
  const Shape shape = {1, 6, 10};
  const std::map<std::string, AttributeValue> last = {{"axes", std::vector<int64_t>{-1}}};
  auto formula = [&](GraphBuilder& b, const std::map<std::string, AttributeValue>& axes, const Shape& stat) {
    b.Input("x", shape).Constant("two", {}, {2.0f}).Constant("eps", {}, {1e-5f});
    b.Op("ReduceMean", {"x"}, "mean", stat, axes)
        .Op("Sub", {"x", "mean"}, "d", shape)
        .Op("Pow", {"d", "two"}, "sq", shape)
        .Op("ReduceMean", {"sq"}, "var", stat, axes)
        .Op("Add", {"var", "eps"}, "ve", stat)
        .Op("Sqrt", {"ve"}, "std", stat)
        .Op("Div", {"d", "std"}, "n", shape);
  };
  {
    GraphBuilder b;
    formula(b, last, {1, 6, 1});
    b.Op("Neg", {"d"}, "extra", shape).Output("n").Output("extra");
    b.graph().opset = 9;
    EXPECT_EQ(*FuseLayerNormFormula(b.graph()), 0);
  }
  {
    GraphBuilder b;
    formula(b, {{"axes", std::vector<int64_t>{1}}}, {1, 1, 10});
    b.Output("n");
    b.graph().opset = 9;
    EXPECT_EQ(*FuseLayerNormFormula(b.graph()), 0);
  }
  {
    GraphBuilder b;
    formula(b, last, {1, 6, 1});
    b.Constant("per_row", {6, 1}, {1, 2, 3, 4, 5, 6}).Op("Mul", {"n", "per_row"}, "y", shape).Output("y");
    b.graph().opset = 9;
    EXPECT_EQ(*FuseLayerNormFormula(b.graph()), 1);
    EXPECT_EQ(Ops(b.graph()), (std::vector<std::string>{"LayerNormalization", "Mul"}));
  }
}

// x + x * gate (PP-OCRv4 det's RSE blocks), gate a squeeze-and-excitation
// gate of x: the gate's Conv adds 1 to its output (a fused shift) and the
// Add becomes x * gate, keeping the Add's Relu; the Mul goes. Where that
// product is read by a Conv alone it fuses on into the Conv as its gate.
// A gate read twice, a product read twice and a gate no node can shift
// (a pool's) stay.
TEST(Passes, GatedSkipBecomesOneProduct) {
  const Shape s = {1, 4, 3, 5};
  const Shape c = {1, 4, 1, 1};
  GraphBuilder b;
  b.Input("x", s)
      .Constant("w", {4, 4, 1, 1}, {0.5f, -1.0f, 0.25f, 2.0f, 1.0f, 0.5f, -0.5f, 0.75f, -2.0f, 1.5f, 0.1f, 0.2f,
                                    0.3f, -0.4f, 0.5f, -0.6f})
      .Op("Conv", {"x", "w"}, "c", s)
      .Op("GlobalAveragePool", {"c"}, "p", c)
      .Op("Conv", {"p", "w"}, "e", c)
      .Op("HardSigmoid", {"e"}, "gate", c)
      .Op("Mul", {"c", "gate"}, "m", s)
      .Op("Add", {"c", "m"}, "y", s)  // fuses, its Relu along
      .Op("Relu", {"y"}, "r", s)
      .Op("Conv", {"p", "w"}, "e2", c)
      .Op("Sigmoid", {"e2"}, "gate2", c)
      .Op("Mul", {"gate2", "r"}, "m2", s)
      .Op("Add", {"m2", "r"}, "a2", s)  // fuses, and on into Conv z
      .Op("Conv", {"a2", "w"}, "z", s)
      .Op("Conv", {"p", "w"}, "e3", c)
      .Op("Sigmoid", {"e3"}, "gate3", c)
      .Op("Mul", {"c", "gate3"}, "m3", s)
      .Op("Add", {"c", "m3"}, "v", s)  // gate3 is a graph output too
      .Op("Conv", {"p", "w"}, "e4", c)
      .Op("Sigmoid", {"e4"}, "gate4", c)
      .Op("Mul", {"c", "gate4"}, "m4", s)
      .Op("Add", {"c", "m4"}, "u", s)
      .Op("Neg", {"m4"}, "n4", s)  // the product read twice
      .Op("Mul", {"c", "p"}, "m5", s)
      .Op("Add", {"c", "m5"}, "t", s)  // the pool cannot add the 1
      .Output("r")
      .Output("z")
      .Output("v")
      .Output("gate3")
      .Output("u")
      .Output("n4")
      .Output("t");
  b.graph().nodes[3].attributes["alpha"] = 1.0f / 6.0f;
  Graph& g = b.graph();
  const PassRun run = RunDefaultPassesOn(g);
  ASSERT_TRUE(run.status.ok()) << run.status.ToString();
  EXPECT_EQ(run.stats.gated_skips_fused, 2);
  EXPECT_EQ(Ops(g), (std::vector<std::string>{"Conv", "GlobalAveragePool", "Conv", "Mul", "Conv", "Conv", "Conv", "Mul",
                                              "Add", "Conv", "Mul", "Add", "Neg", "Mul", "Add"}));
  // The first: r = Relu(c * (HardSigmoid(e) + 1)).
  EXPECT_EQ(GetFusedActivation(g.nodes[2])->type, "HardSigmoid");
  EXPECT_EQ(g.nodes[2].GetFloat(kFusedOutputShiftAttr, 0.0f), 1.0f);
  EXPECT_EQ(g.nodes[3].inputs, (std::vector<std::string>{"c", "gate"}));
  EXPECT_EQ(g.nodes[3].outputs[0], "r");
  EXPECT_EQ(GetFusedActivation(g.nodes[3])->type, "Relu");
  // The second: Conv z reads r scaled by Sigmoid(e2) + 1.
  EXPECT_EQ(g.nodes[4].GetFloat(kFusedOutputShiftAttr, 0.0f), 1.0f);
  EXPECT_EQ(g.nodes[5].inputs, (std::vector<std::string>{"r", "w", "", "gate2"}));
  EXPECT_EQ(g.nodes[6].GetFloat(kFusedOutputShiftAttr, 0.0f), 0.0f);
  const TensorData x = Ramp(s, 0.27f);
  for (const char* out : {"r", "z", "v", "gate3", "u", "n4", "t"}) {
    ExpectClose(RunOnCpu(g, x, out), RunOnCpu(run.before, x, out));
  }
}

// A feature pyramid's x + nearest_upsample(y) by whole factors (half_pixel
// and asymmetric rules, either operand order): the Add reads y through the
// upsample (kNearestUpsampledInputAttr) and the Resizes go, computing what
// the nodes did. A Resize whose cells are not (h / f, w / f) (asymmetric
// with ceil rounding), a linear one, one read by a Conv and one whose Add
// broadcasts the other operand stay.
TEST(Passes, NearestUpsampleFoldsIntoItsAdd) {
  const Shape big = {1, 4, 6, 8};
  const Shape small = {1, 4, 3, 4};
  const std::map<std::string, AttributeValue> half_pixel = {{"mode", std::string("nearest")}};
  const std::map<std::string, AttributeValue> asymmetric = {
      {"mode", std::string("nearest")},
      {"coordinate_transformation_mode", std::string("asymmetric")},
      {"nearest_mode", std::string("floor")}};
  const std::map<std::string, AttributeValue> ceil = {
      {"mode", std::string("nearest")},
      {"coordinate_transformation_mode", std::string("asymmetric")},
      {"nearest_mode", std::string("ceil")}};
  const std::map<std::string, AttributeValue> linear = {{"mode", std::string("linear")}};
  GraphBuilder b;
  b.Input("x", big)
      .Input("y", small)
      .Constant("roi", {0}, {})
      .Constant("scales", {4}, {1.0f, 1.0f, 2.0f, 2.0f})
      .Constant("w", {4, 4, 1, 1}, std::vector<float>(16, 0.25f))
      .Op("Resize", {"y", "roi", "scales"}, "u1", big, half_pixel)
      .Op("Add", {"x", "u1"}, "s1", big)  // folds
      .Op("Resize", {"y", "roi", "scales"}, "u2", big, asymmetric)
      .Op("Sub", {"u2", "s1"}, "s2", big)  // folds, input 0
      .Op("Resize", {"y", "roi", "scales"}, "u3", big, ceil)
      .Op("Add", {"s2", "u3"}, "s3", big)
      .Op("Resize", {"y", "roi", "scales"}, "u4", big, linear)
      .Op("Add", {"s3", "u4"}, "s4", big)
      .Op("Resize", {"y", "roi", "scales"}, "u5", big, half_pixel)
      .Op("Conv", {"u5", "w"}, "c5", big)
      .Op("Add", {"s4", "c5"}, "s5", big)
      .Op("GlobalAveragePool", {"x"}, "p", {1, 4, 1, 1})
      .Op("Resize", {"y", "roi", "scales"}, "u6", big, half_pixel)
      .Op("Mul", {"p", "u6"}, "s6", big)  // p broadcasts
      .Output("s5")
      .Output("s6");
  Graph& g = b.graph();
  const PassRun run = RunDefaultPassesOn(g);
  ASSERT_TRUE(run.status.ok()) << run.status.ToString();
  EXPECT_EQ(run.stats.nearest_upsamples_folded, 2);
  EXPECT_EQ(Ops(g), (std::vector<std::string>{"Add", "Sub", "Resize", "Add", "Resize", "Add", "Resize", "Conv",
                                              "GlobalAveragePool", "Resize", "Mul"}));
  EXPECT_EQ(g.nodes[0].inputs, (std::vector<std::string>{"x", "y"}));
  EXPECT_EQ(g.nodes[0].GetInts(kNearestUpsampledInputAttr), (std::vector<int64_t>{1, 2, 2}));
  EXPECT_EQ(g.nodes[1].inputs, (std::vector<std::string>{"y", "s1"}));
  EXPECT_EQ(g.nodes[1].GetInts(kNearestUpsampledInputAttr), (std::vector<int64_t>{0, 2, 2}));
  const TensorData x = Ramp(big, 0.19f);
  const TensorData y = Ramp(small, -0.37f);
  for (const char* out : {"s5", "s6"}) {
    ExpectClose(RunOnCpu(g, {{"x", x}, {"y", y}}, out), RunOnCpu(run.before, {{"x", x}, {"y", y}}, out));
  }
}

}  // namespace
}  // namespace glpool
