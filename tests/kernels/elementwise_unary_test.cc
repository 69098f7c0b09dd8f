#include <gtest/gtest.h>

#include <cmath>

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

}  // namespace
}  // namespace glpool::testing
