#include <gtest/gtest.h>

#include <cmath>

#include "gpu_backend/kernels/kernel_check.h"
#include "tests/kernels/kernel_test_util.h"

namespace glpool::testing {
namespace {

KernelCase Unary(const std::string& op, const Shape& shape, float lo = -3.0f, float hi = 3.0f) {
  KernelCase c;
  c.node.name = op + "_node";
  c.node.op_type = op;
  c.node.inputs = {"x"};
  c.node.outputs = {"y"};
  c.inputs["x"] = RandomTensor(shape, 3, lo, hi);
  c.outputs["y"] = shape;
  c.opset = 14;  // HardSwish's first opset
  return c;
}

// Inputs on a 1/16 grid, off by 1/32: exact in fp16, so rounding ops and
// thresholds see the same values in every precision.
KernelCase OnGrid(KernelCase c) {
  std::vector<float> values = c.inputs["x"].ToFloats();
  for (float& v : values) v = std::floor(v * 16.0f) / 16.0f + 1.0f / 32.0f;
  c.inputs["x"] = TensorData::FromFloats(c.inputs["x"].shape, values);
  return c;
}

TEST(ElementwiseUnaryTest, ReluOddShapes) {
  for (const Shape& shape :
       std::vector<Shape>{{1, 1, 7, 13}, {1, 3, 7, 13}, {1, 5, 127, 1}, {2, 13, 3, 5}, {5}, {3, 7}}) {
    SCOPED_TRACE(ShapeToString(shape));
    ExpectMatchesReference(Unary("Relu", shape), shape[1] == 3 ? AllVariants() : SweepVariants());
  }
}

TEST(ElementwiseUnaryTest, EveryOp) {
  const Shape shape = {1, 5, 7, 13};
  for (const char* op : {"Sigmoid", "Tanh", "HardSigmoid", "HardSwish", "LeakyRelu", "Elu", "Exp", "Neg", "Abs", "Sign",
                         "Sin", "Cos", "Softplus", "Softsign", "Selu", "Celu"}) {
    SCOPED_TRACE(op);
    ExpectMatchesReference(Unary(op, shape), SweepVariants());
  }
  for (const char* op : {"Floor", "Ceil", "Round", "ThresholdedRelu"}) {
    SCOPED_TRACE(op);
    ExpectMatchesReference(OnGrid(Unary(op, shape)), SweepVariants());
  }
  // Plain math: one variant is enough (the storage code is shared).
  const std::vector<ExecutorOptions> one = {SweepVariants()[0]};
  for (const char* op : {"Tan", "Asin", "Acos", "Atan", "Sinh", "Cosh", "Asinh", "Atanh"}) {
    SCOPED_TRACE(op);
    ExpectMatchesReference(Unary(op, shape, -0.9f, 0.9f), one);
  }
  ExpectMatchesReference(Unary("Acosh", shape, 1.1f, 4.0f), one);
  // Positive inputs only: NaN handling is not the kernels' business.
  for (const char* op : {"Sqrt", "Log", "Reciprocal"}) {
    SCOPED_TRACE(op);
    ExpectMatchesReference(Unary(op, shape, 0.1f, 4.0f), SweepVariants());
  }
  KernelCase alpha = Unary("LeakyRelu", shape);
  alpha.node.attributes["alpha"] = 0.3f;
  ExpectMatchesReference(alpha, SweepVariants());
}

TEST(ElementwiseUnaryTest, ErfIsPrecise) {
  // |error| < 1e-6: the whole range, including tiny inputs and the tails.
  KernelCase c = Unary("Erf", {1, 13, 7, 13}, -4.0f, 4.0f);
  ExpectMatchesReference(c, SweepVariants(), 1e-6f);
  ExpectMatchesReference(Unary("Erf", {1, 5, 7, 13}, -0.7f, 0.7f), SweepVariants(), 1e-6f);
}

TEST(ElementwiseUnaryTest, ClipBounds) {
  KernelCase both = Unary("Clip", {1, 5, 7, 13});
  both.node.inputs = {"x", "lo", "hi"};
  both.constants["lo"] = TensorData::FromFloats({}, {-0.5f});
  both.constants["hi"] = TensorData::FromFloats({}, {6.0f});
  ExpectMatchesReference(both, SweepVariants());
  KernelCase upper = Unary("Clip", {1, 3, 127, 1});
  upper.node.inputs = {"x", "", "hi"};
  upper.constants["hi"] = TensorData::FromFloats({}, {0.25f});
  ExpectMatchesReference(upper, SweepVariants());
  // Bounds computed at run time are bound as extra inputs.
  KernelCase dynamic = Unary("Clip", {1, 5, 7, 13});
  dynamic.node.inputs = {"x", "lo", "hi"};
  dynamic.inputs["lo"] = TensorData::FromFloats({}, {-0.5f});
  dynamic.constants["hi"] = TensorData::FromFloats({}, {0.75f});
  ExpectMatchesReference(dynamic, SweepVariants());
  dynamic.constants.clear();
  dynamic.inputs["hi"] = TensorData::FromFloats({}, {0.75f});
  ExpectMatchesReference(dynamic, SweepVariants());
  dynamic.node.inputs = {"x", "", "hi"};
  dynamic.inputs.erase("lo");
  ExpectMatchesReference(dynamic, SweepVariants());
  KernelCase old = Unary("Clip", {1, 13, 7, 13});
  old.opset = 6;
  old.node.attributes["min"] = 0.0f;
  old.node.attributes["max"] = 6.0f;
  ExpectMatchesReference(old, SweepVariants());
}

TEST(ElementwiseUnaryTest, PReluSlopes) {
  KernelCase channel = Unary("PRelu", {1, 5, 7, 13});
  channel.node.inputs = {"x", "slope"};
  channel.constants["slope"] = RandomTensor({5, 1, 1}, 9, 0.0f, 0.5f);
  ExpectMatchesReference(channel);
  KernelCase full = Unary("PRelu", {1, 3, 7, 13});
  full.node.inputs = {"x", "slope"};
  full.inputs["slope"] = RandomTensor({1, 3, 7, 13}, 9, 0.0f, 0.5f);
  ExpectMatchesReference(full, SweepVariants());
}

TEST(ElementwiseUnaryTest, FusedActivation) {
  KernelCase c = Unary("Abs", {1, 5, 7, 13});
  c.node.attributes["fused_activation"] = std::string("Clip");
  c.node.attributes["fused_activation_params"] = std::vector<float>{0.0f, 0.5f};
  ExpectMatchesReference(c, SweepVariants());
}

TEST(ElementwiseUnaryTest, NotOnBools) {
  std::vector<double> flags;
  for (float v : RandomTensor({1, 5, 7, 13}, 11).ToFloats()) flags.push_back(v > 0);
  KernelCase c = Unary("Not", {1, 5, 7, 13});
  c.inputs["x"] = TypedTensor(DataType::kBool, {1, 5, 7, 13}, flags);
  c.output_dtypes["y"] = DataType::kBool;
  ExpectMatchesReference(c);
}

// Cast of `values` (as `from`) to `to`, an ONNX TensorProto type number.
KernelCase Cast(DataType from, const std::vector<double>& values, DataType to, int64_t onnx_to) {
  const Shape shape = {1, 3, 1, static_cast<int64_t>(values.size()) / 3};
  KernelCase c = Unary("Cast", shape);
  c.inputs["x"] = TypedTensor(from, shape, values);
  c.output_dtypes["y"] = to;
  c.node.attributes["to"] = onnx_to;
  c.opset = 13;
  return c;
}

// Multiples of 1/4 in [-lo, hi): exact in fp16, so the float -> integer
// cases see the same values in every precision.
std::vector<double> QuarterValues(uint32_t seed, float lo, float hi) {
  std::vector<double> values;
  for (float v : RandomTensor({3 * 127}, seed, lo, hi).ToFloats()) values.push_back(std::floor(v * 4.0f) / 4.0f);
  values[0] = 2.75;  // toward zero, in both directions
  values[1] = -2.75;
  return values;
}

TEST(ElementwiseUnaryTest, CastFloatToIntegersWrapsAndTruncates) {
  const std::vector<double> values = QuarterValues(12, -500.0f, 500.0f);
  const struct {
    DataType to;
    int64_t onnx;
  } targets[] = {{DataType::kInt8, 3},  {DataType::kUint8, 2}, {DataType::kInt16, 5},
                 {DataType::kInt32, 6}, {DataType::kInt64, 7}, {DataType::kBool, 9}};
  for (const auto& target : targets) {
    SCOPED_TRACE(DataTypeName(target.to));
    ExpectMatchesReference(Cast(DataType::kFloat32, values, target.to, target.onnx), SweepVariants());
  }
  // Off the fp16 grid and beyond int16: fp32 only.
  std::vector<double> wide;
  for (float v : RandomTensor({3 * 127}, 13, -70000.0f, 70000.0f).ToFloats()) wide.push_back(v);
  ExpectMatchesReference(Cast(DataType::kFloat32, wide, DataType::kInt16, 5), {SweepVariants()[0]});
  ExpectMatchesReference(Cast(DataType::kFloat32, wide, DataType::kUint8, 2), {SweepVariants()[0]});
}

TEST(ElementwiseUnaryTest, CastBetweenIntegersAndBools) {
  std::vector<double> ints;
  for (double v : QuarterValues(14, -1000.0f, 1000.0f)) ints.push_back(std::trunc(v));
  ExpectMatchesReference(Cast(DataType::kInt32, ints, DataType::kUint8, 2), AllVariants());
  ExpectMatchesReference(Cast(DataType::kInt64, ints, DataType::kInt8, 3), SweepVariants());
  ExpectMatchesReference(Cast(DataType::kInt32, ints, DataType::kFloat32, 1), SweepVariants());
  ExpectMatchesReference(Cast(DataType::kInt16, ints, DataType::kBool, 9), SweepVariants());
  std::vector<double> flags;
  for (double v : ints) flags.push_back(v > 0);
  ExpectMatchesReference(Cast(DataType::kBool, flags, DataType::kFloat32, 1), SweepVariants());
  ExpectMatchesReference(Cast(DataType::kBool, flags, DataType::kInt32, 6), SweepVariants());
}

TEST(ElementwiseUnaryTest, CastRoundsToFloat16) {
  // Normal and subnormal halves: an off-by-one rounding is far above the
  // fp32 tolerance in both ranges.
  for (float scale : {4.0f, 1e-4f, 60000.0f}) {
    SCOPED_TRACE(scale);
    std::vector<double> values;
    for (float v : RandomTensor({3 * 127}, 15, -scale, scale).ToFloats()) values.push_back(v);
    ExpectMatchesReference(Cast(DataType::kFloat32, values, DataType::kFloat16, 10), SweepVariants(), 1e-6f);
  }
  std::vector<double> halves;
  for (float v : RandomTensor({3 * 127}, 16, -8.0f, 8.0f).ToFloats()) halves.push_back(v);
  ExpectMatchesReference(Cast(DataType::kFloat16, halves, DataType::kFloat32, 1), SweepVariants());
}

TEST(ElementwiseUnaryTest, CastFloat64AtTheGraphEdge) {
  std::vector<double> values;
  for (float v : RandomTensor({3 * 5}, 17).ToFloats()) values.push_back(v * 1.000000001);
  ExpectMatchesReference(Cast(DataType::kFloat64, values, DataType::kFloat32, 1), SweepVariants());
  ExpectMatchesReference(Cast(DataType::kFloat32, values, DataType::kFloat64, 11), SweepVariants());
  KernelCase like = Cast(DataType::kFloat32, values, DataType::kInt8, 3);
  like.node.op_type = "CastLike";
  like.node.attributes.clear();
  like.node.inputs = {"x", "like"};
  like.constants["like"] = TypedTensor(DataType::kInt8, {1}, {0});
  like.opset = 15;
  ExpectMatchesReference(like, SweepVariants());
}

// More work groups on one axis than GL_MAX_COMPUTE_WORK_GROUP_COUNT allows
// (65535 on llvmpipe, and the GLES minimum): the dispatch runs in parts,
// each told its first group, and every element is still computed once.
TEST(ElementwiseUnaryTest, DispatchLargerThanTheWorkGroupLimitRunsInParts) {
  const Shape shape = {1, 1, 1, 8 * 65535 + 4099};
  const KernelCase c = Unary("Relu", shape);
  const Graph graph = GraphOf(c);
  StatusOr<KernelPlan> plan = BuildNodeKernel(graph, graph.nodes[0], KernelLimits{});
  ASSERT_TRUE(plan.ok()) << plan.status().ToString();
  ASSERT_GT(plan->groups[0] * uint64_t{1}, uint64_t{65535}) << "the case no longer needs a split dispatch";
  ExpectMatchesReference(c, {SweepVariants()[0]});
}

// A zero-sized dimension dispatches nothing and gives an empty output.
TEST(ElementwiseUnaryTest, EmptyTensorRunsNothing) {
  const Shape shape = {1, 0, 4, 4};
  ExpectMatchesReference(Unary("Relu", shape), {SweepVariants()[0]});
}

KernelCase NewerUnary(const std::string& op, const Shape& shape, const std::string& approximate = "") {
  KernelCase c;
  c.node.name = op;
  c.node.op_type = op;
  if (!approximate.empty()) c.node.attributes["approximate"] = approximate;
  c.node.inputs = {"x"};
  c.node.outputs = {"y"};
  c.opset = 20;
  c.inputs["x"] = RandomTensor(shape, 85, -6.0f, 6.0f);
  c.outputs["y"] = shape;
  return c;
}

TEST(ElementwiseUnaryTest, GeluAndMishOfOpsets18And20) {
  ExpectMatchesReference(NewerUnary("Gelu", {2, 13, 7, 5}), SweepVariants());
  ExpectMatchesReference(NewerUnary("Gelu", {3, 127}, "tanh"), SweepVariants());
  ExpectMatchesReference(NewerUnary("Mish", {1, 5, 13, 3}), SweepVariants());
}

}  // namespace
}  // namespace glpool::testing
