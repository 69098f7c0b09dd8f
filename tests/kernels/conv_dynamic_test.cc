// Conv and ConvTranspose whose weights are graph inputs, as the ONNX node
// tests feed them: the descriptors hand these to conv_dynamic.
#include <gtest/gtest.h>

#include "tests/kernels/kernel_test_util.h"

namespace glpool::testing {
namespace {

KernelCase Dynamic(const std::string& op, const Shape& x, const Shape& w, const Shape& y, int64_t group,
                   std::vector<int64_t> strides, std::vector<int64_t> pads, bool bias) {
  KernelCase c;
  c.node.name = "dynamic";
  c.node.op_type = op;
  c.node.inputs = {"x", "w"};
  c.node.outputs = {"y"};
  c.node.attributes["group"] = group;
  c.node.attributes["strides"] = strides;
  c.node.attributes["pads"] = pads;
  c.inputs["x"] = RandomTensor(x, 5);
  c.inputs["w"] = RandomTensor(w, 6);
  if (bias) {
    c.node.inputs.push_back("b");
    c.constants["b"] = RandomTensor({y[1]}, 7);
  }
  c.outputs["y"] = y;
  return c;
}

TEST(ConvDynamicTest, ConvWeightsAsInput) {
  ExpectMatchesReference(Dynamic("Conv", {1, 5, 7, 13}, {3, 5, 3, 3}, {1, 3, 4, 7}, 1, {2, 2}, {1, 1, 1, 1}, true));
  ExpectMatchesReference(Dynamic("Conv", {1, 6, 7, 5}, {9, 2, 3, 1}, {1, 9, 5, 5}, 3, {1, 1}, {0, 0, 0, 0}, false));
  ExpectMatchesReference(Dynamic("Conv", {2, 3, 13}, {5, 3, 3}, {2, 5, 13}, 1, {1}, {1, 1}, true));
}

TEST(ConvDynamicTest, ConvTransposeWeightsAsInput) {
  ExpectMatchesReference(
      Dynamic("ConvTranspose", {1, 5, 4, 6}, {5, 3, 3, 3}, {1, 3, 7, 11}, 1, {2, 2}, {1, 1, 1, 1}, true));
  ExpectMatchesReference(
      Dynamic("ConvTranspose", {1, 4, 3, 5}, {4, 3, 2, 2}, {1, 6, 6, 10}, 2, {2, 2}, {0, 0, 0, 0}, false));
}

}  // namespace
}  // namespace glpool::testing
