#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "gpu_backend/cpu_reference/executor.h"
#include "gpu_backend/kernels/kernel.h"
#include "tests/kernels/kernel_test_util.h"

namespace glpool::testing {
namespace {

KernelCase Binary(const std::string& op, const Shape& a, const Shape& b, const Shape& out, bool b_constant = false) {
  KernelCase c;
  c.node.name = op + "_node";
  c.node.op_type = op;
  c.node.inputs = {"a", "b"};
  c.node.outputs = {"y"};
  c.inputs["a"] = RandomTensor(a, 1);
  // Positive second operands keep Div and Pow well conditioned.
  TensorData second = RandomTensor(b, 2, op == "Div" || op == "Pow" ? 0.5f : -1.0f, op == "Pow" ? 2.0f : 1.0f);
  if (op == "Pow") c.inputs["a"] = RandomTensor(a, 1, 0.1f, 2.0f);
  (b_constant ? c.constants : c.inputs)["b"] = second;
  c.outputs["y"] = out;
  return c;
}

TEST(ElementwiseBinaryTest, SameShapeOddChannels) {
  for (const char* op : {"Add", "Sub", "Mul", "Div", "Pow"}) {
    for (int64_t channels : {1, 3, 5, 13}) {
      SCOPED_TRACE(std::string(op) + " C=" + std::to_string(channels));
      ExpectMatchesReference(Binary(op, {1, channels, 7, 13}, {1, channels, 7, 13}, {1, channels, 7, 13}));
    }
  }
}

TEST(ElementwiseBinaryTest, SqueezeExciteBroadcast) {
  ExpectMatchesReference(Binary("Mul", {1, 13, 7, 13}, {1, 13, 1, 1}, {1, 13, 7, 13}));
}

// Operands that keep the output's channels and broadcast along the batch,
// the rows or the columns read whole texels; those that vary along none of
// the channels read one value for all four (elementwise_binary.comp).
TEST(ElementwiseBinaryTest, TexelAndScalarBroadcasts) {
  const Shape out = {2, 6, 7, 13};
  for (const Shape& b : {Shape{2, 6, 1, 1}, Shape{1, 6, 7, 1}, Shape{1, 6, 1, 13}, Shape{2, 1, 7, 1},
                         Shape{1, 1, 1, 13}, Shape{13}, Shape{}}) {
    SCOPED_TRACE(ShapeToString(b));
    ExpectMatchesReference(Binary("Sub", out, b, out));
    ExpectMatchesReference(Binary("Div", b, out, out, false));
  }
}

TEST(ElementwiseBinaryTest, LowerRankConstantBroadcast) {
  ExpectMatchesReference(Binary("Add", {1, 5, 127, 1}, {5, 1, 1}, {1, 5, 127, 1}, true));
  ExpectMatchesReference(Binary("Add", {2, 3, 4}, {4}, {2, 3, 4}));
  ExpectMatchesReference(Binary("Sub", {3, 1}, {1, 5}, {3, 5}));
}

TEST(ElementwiseBinaryTest, FusedActivation) {
  KernelCase c = Binary("Add", {1, 5, 7, 13}, {1, 5, 7, 13}, {1, 5, 7, 13});
  c.node.attributes["fused_activation"] = std::string("Clip");
  c.node.attributes["fused_activation_params"] = std::vector<float>{0.0f, 0.5f};
  ExpectMatchesReference(c);
}

// The fused output scale and shift (graph.h) apply after the activation:
// HardSwish's negative dip is scaled too, then shifted. Checked against the
// CPU reference, and that against the formula itself.
TEST(ElementwiseBinaryTest, FusedOutputScaleAndShiftAfterTheActivation) {
  KernelCase c = Binary("Add", {1, 5, 7, 13}, {1, 5, 7, 13}, {1, 5, 7, 13});
  c.node.attributes[kFusedActivationAttr] = std::string("HardSwish");
  c.node.attributes[kFusedOutputScaleAttr] = 0.75f;
  c.node.attributes[kFusedOutputShiftAttr] = -0.125f;
  ExpectMatchesReference(c, SweepVariants());
  auto got = cpu_reference::RunNode(c.node, 13, {&c.inputs["a"], &c.inputs["b"]});
  ASSERT_TRUE(got.ok()) << got.status().ToString();
  const std::vector<float> a = c.inputs["a"].ToFloats(), b = c.inputs["b"].ToFloats();
  const std::vector<float> y = (*got)[0].ToFloats();
  for (size_t i = 0; i < y.size(); ++i) {
    const float x = a[i] + b[i];
    const float want = x * std::min(std::max(x + 3.0f, 0.0f), 6.0f) / 6.0f * 0.75f - 0.125f;
    ASSERT_NEAR(y[i], want, 1e-6f) << i;
  }
}

// Whole numbers in [lo, hi] (zero skipped when `nonzero`: divisors).
std::vector<double> Whole(const Shape& shape, uint32_t seed, int lo, int hi, bool nonzero = false) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> dist(lo, hi);
  std::vector<double> values(static_cast<size_t>(ElementCount(shape)));
  for (double& v : values) {
    do {
      v = dist(rng);
    } while (nonzero && v == 0);
  }
  return values;
}

// Multiples of 1/4 in [-2, 2]: exact in fp16, and often equal, so
// comparisons see the same operands in every precision and Equal is true
// now and then.
TensorData Quarters(const Shape& shape, uint32_t seed) {
  std::vector<double> values = Whole(shape, seed, -8, 8);
  for (double& v : values) v /= 4;
  return TypedTensor(DataType::kFloat32, shape, values);
}

// A node named after `op` over inputs x0, x1, ... and output y.
KernelCase Nary(const std::string& op, const std::vector<TensorData>& inputs, const Shape& out,
                DataType out_dtype = DataType::kFloat32) {
  KernelCase c;
  c.node.name = op + "_node";
  c.node.op_type = op;
  for (size_t i = 0; i < inputs.size(); ++i) {
    const std::string name = "x" + std::to_string(i);
    c.node.inputs.push_back(name);
    c.inputs[name] = inputs[i];
  }
  c.node.outputs = {"y"};
  c.outputs["y"] = out;
  c.output_dtypes["y"] = out_dtype;
  return c;
}

TEST(ElementwiseBinaryTest, ComparisonsGiveBools) {
  for (const char* op : {"Equal", "Less", "Greater", "LessOrEqual", "GreaterOrEqual"}) {
    SCOPED_TRACE(op);
    ExpectMatchesReference(Nary(op, {Quarters({1, 5, 7, 13}, 1), Quarters({5, 1, 13}, 2)}, {1, 5, 7, 13},
                                DataType::kBool),
                           SweepVariants());
  }
  const Shape a = {2, 3, 1}, b = {3, 13};
  ExpectMatchesReference(Nary("Less",
                              {TypedTensor(DataType::kInt32, a, Whole(a, 3, -5, 5)),
                               TypedTensor(DataType::kInt32, b, Whole(b, 4, -5, 5))},
                              {2, 3, 13}, DataType::kBool));
}

TEST(ElementwiseBinaryTest, LogicOnBools) {
  const Shape a = {2, 3, 127, 1}, b = {3, 1, 1};
  for (const char* op : {"And", "Or", "Xor"}) {
    SCOPED_TRACE(op);
    ExpectMatchesReference(Nary(op,
                                {TypedTensor(DataType::kBool, a, Whole(a, 5, 0, 1)),
                                 TypedTensor(DataType::kBool, b, Whole(b, 6, 0, 1))},
                                a, DataType::kBool),
                           SweepVariants());
  }
}

TEST(ElementwiseBinaryTest, WhereBroadcastsAllThree) {
  const Shape cond = {1, 1, 7, 13}, y = {5, 1, 1};
  ExpectMatchesReference(Nary("Where",
                              {TypedTensor(DataType::kBool, cond, Whole(cond, 7, 0, 1)),
                               RandomTensor({1, 5, 7, 13}, 8), RandomTensor(y, 9)},
                              {1, 5, 7, 13}));
  const Shape int_cond = {1, 5, 1, 13}, int_x = {13}, int_y = {1, 5, 7, 1};
  ExpectMatchesReference(Nary("Where",
                              {TypedTensor(DataType::kBool, int_cond, Whole(int_cond, 10, 0, 1)),
                               TypedTensor(DataType::kInt64, int_x, Whole(int_x, 11, -100, 100)),
                               TypedTensor(DataType::kInt64, int_y, Whole(int_y, 12, -100, 100))},
                              {1, 5, 7, 13}, DataType::kInt64),
                         SweepVariants());
}

TEST(ElementwiseBinaryTest, VariadicSumMeanMaxMin) {
  ExpectMatchesReference(Nary("Sum", {RandomTensor({1, 13, 7, 13}, 13)}, {1, 13, 7, 13}), SweepVariants());
  const std::vector<TensorData> three = {RandomTensor({1, 5, 7, 13}, 14), RandomTensor({5, 1, 1}, 15),
                                         RandomTensor({13}, 16)};
  ExpectMatchesReference(Nary("Sum", three, {1, 5, 7, 13}));
  ExpectMatchesReference(Nary("Mean", three, {1, 5, 7, 13}), SweepVariants());
  // NaN propagates through Max and Min from either side.
  std::vector<float> with_nan = RandomTensor({3, 1, 13}, 17).ToFloats();
  with_nan[4] = with_nan[20] = NAN;
  const std::vector<TensorData> four = {RandomTensor({2, 3, 5, 13}, 18), TensorData::FromFloats({3, 1, 13}, with_nan),
                                        RandomTensor({5, 1}, 19), RandomTensor({2, 1, 1, 1}, 20)};
  for (const char* op : {"Max", "Min"}) {
    SCOPED_TRACE(op);
    ExpectMatchesReference(Nary(op, four, {2, 3, 5, 13}), SweepVariants());
  }
  const Shape ints = {3, 7};
  ExpectMatchesReference(Nary("Max",
                              {TypedTensor(DataType::kInt32, ints, Whole(ints, 21, -50, 50)),
                               TypedTensor(DataType::kInt32, {7}, Whole({7}, 22, -50, 50))},
                              ints, DataType::kInt32),
                         SweepVariants());
}

TEST(ElementwiseBinaryTest, IntegerDivisionTruncates) {
  const Shape a = {1, 5, 7, 13}, b = {5, 1, 1};
  ExpectMatchesReference(Nary("Div",
                              {TypedTensor(DataType::kInt32, a, Whole(a, 23, -100, 100)),
                               TypedTensor(DataType::kInt32, b, Whole(b, 24, -9, 9, true))},
                              a, DataType::kInt32));
  ExpectMatchesReference(Nary("Div",
                              {TypedTensor(DataType::kInt64, a, Whole(a, 25, -2000, 2000)),
                               TypedTensor(DataType::kInt64, a, Whole(a, 26, -40, 40, true))},
                              a, DataType::kInt64),
                         SweepVariants());
}

TEST(ElementwiseBinaryTest, PowOfIntegersAndNegativeBases) {
  const Shape shape = {1, 3, 7, 13};
  // Whole powers come out whole although GLSL's pow is a few ulps off.
  ExpectMatchesReference(Nary("Pow",
                              {TypedTensor(DataType::kInt64, shape, Whole(shape, 27, -4, 4)),
                               TypedTensor(DataType::kInt64, {13}, Whole({13}, 28, 0, 4))},
                              shape, DataType::kInt64),
                         SweepVariants());
  // Integer base, float exponent: the float power truncated.
  std::vector<double> exponents = Whole({3, 1, 1}, 29, 1, 12);
  for (double& e : exponents) e /= 4;
  ExpectMatchesReference(Nary("Pow",
                              {TypedTensor(DataType::kInt32, shape, Whole(shape, 30, 0, 6)),
                               TypedTensor(DataType::kFloat32, {3, 1, 1}, exponents)},
                              shape, DataType::kInt32),
                         SweepVariants());
  // Negative float bases with whole exponents, negative ones included.
  std::vector<float> bases = RandomTensor(shape, 31, 0.5f, 2.0f).ToFloats();
  for (size_t i = 0; i < bases.size(); i += 2) bases[i] = -bases[i];
  ExpectMatchesReference(Nary("Pow",
                              {TensorData::FromFloats(shape, bases),
                               TypedTensor(DataType::kFloat32, {13}, Whole({13}, 32, -3, 3))},
                              shape),
                         SweepVariants());
}

TEST(ElementwiseBinaryTest, LegacyBroadcastAxis) {
  // Before opset 7, B aligns at "axis": [3, 4] against [2, 3, 4, 5] at axis 1.
  KernelCase c = Nary("Add", {RandomTensor({2, 3, 4, 5}, 33), RandomTensor({3, 4}, 34)}, {2, 3, 4, 5});
  c.node.attributes["broadcast"] = int64_t{1};
  c.node.attributes["axis"] = int64_t{1};
  c.opset = 6;
  ExpectMatchesReference(c, SweepVariants());
}

// An operand read through a folded nearest upsample (graph.h
// kNearestUpsampledInputAttr) loads its texel at (h / fy, w / fx): either
// operand, equal and unequal factors, odd channels. The CPU reference is
// checked against the formula too.
TEST(ElementwiseBinaryTest, NearestUpsampledOperand) {
  KernelCase c = Binary("Add", {1, 6, 8, 10}, {1, 6, 4, 5}, {1, 6, 8, 10});
  c.node.attributes[kNearestUpsampledInputAttr] = std::vector<int64_t>{1, 2, 2};
  ExpectMatchesReference(c);
  auto got = cpu_reference::RunNode(c.node, 13, {&c.inputs["a"], &c.inputs["b"]});
  ASSERT_TRUE(got.ok()) << got.status().ToString();
  const std::vector<float> a = c.inputs["a"].ToFloats(), b = c.inputs["b"].ToFloats();
  const std::vector<float> y = (*got)[0].ToFloats();
  ASSERT_EQ(y.size(), a.size());
  for (size_t i = 0; i < y.size(); ++i) {
    const size_t plane = i / 80, h = i / 10 % 8, w = i % 10;
    ASSERT_EQ(y[i], a[i] + b[(plane * 4 + h / 2) * 5 + w / 2]) << "element " << i;
  }
  KernelCase d = Binary("Sub", {2, 5, 7, 4}, {2, 5, 7, 12}, {2, 5, 7, 12});
  d.node.attributes[kNearestUpsampledInputAttr] = std::vector<int64_t>{0, 1, 3};
  ExpectMatchesReference(d, SweepVariants());
}

// A malformed nearest_upsampled_input (a model may carry one) is refused
// with a reason by the CPU reference and the GPU plan: an input the node
// lacks, a zero factor, factors past the shape bound, and (GPU) factors
// whose upsample is not the output's shape.
TEST(ElementwiseBinaryTest, MalformedNearestUpsampleIsRefused) {
  KernelCase c = Binary("Add", {1, 6, 8, 10}, {1, 6, 4, 5}, {1, 6, 8, 10});
  for (const std::vector<int64_t>& bad : {std::vector<int64_t>{2, 2, 2}, std::vector<int64_t>{1, 0, 2},
                                          std::vector<int64_t>{1, int64_t{1} << 40, 2},
                                          std::vector<int64_t>{1, 2, 1}}) {
    SCOPED_TRACE(::testing::PrintToString(bad));
    c.node.attributes[kNearestUpsampledInputAttr] = bad;
    const Graph graph = GraphOf(c);
    auto plan = FindKernel("Add")->build(graph, graph.nodes[0], KernelLimits{});
    ASSERT_FALSE(plan.ok());
    EXPECT_EQ(plan.status().code(), StatusCode::kInvalidModel) << plan.status().ToString();
    if (bad[2] == 1) continue;  // well formed: only the output's shape says it is wrong
    auto got = cpu_reference::RunNode(c.node, 13, {&c.inputs["a"], &c.inputs["b"]});
    ASSERT_FALSE(got.ok());
    EXPECT_NE(got.status().message().find("upsample"), std::string::npos) << got.status().ToString();
  }
}

}  // namespace
}  // namespace glpool::testing
