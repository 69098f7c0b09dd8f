#include <gtest/gtest.h>

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

}  // namespace
}  // namespace glpool::testing
