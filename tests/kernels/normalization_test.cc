#include <gtest/gtest.h>

#include "tests/kernels/kernel_test_util.h"

namespace glpool::testing {
namespace {

KernelCase Instance(const Shape& shape) {
  KernelCase c;
  c.node.name = "instance_norm";
  c.node.op_type = "InstanceNormalization";
  c.node.inputs = {"x", "scale", "bias"};
  c.node.outputs = {"y"};
  c.inputs["x"] = RandomTensor(shape, 71, -2.0f, 3.0f);
  c.constants["scale"] = RandomTensor({shape[1]}, 72, 0.5f, 2.0f);
  c.constants["bias"] = RandomTensor({shape[1]}, 73);
  c.outputs["y"] = shape;
  return c;
}

// LayerNormalization over dims [axis, rank); with_stats adds Mean and
// InvStdDev outputs.
KernelCase Layer(const Shape& shape, int64_t axis, bool with_bias = true, bool scalar_scale = false,
                 bool with_stats = false) {
  KernelCase c;
  c.node.name = "layer_norm";
  c.node.op_type = "LayerNormalization";
  c.node.attributes["axis"] = axis;
  c.node.inputs = {"x", "scale"};
  c.node.outputs = {"y"};
  c.opset = 17;
  const size_t first = static_cast<size_t>(axis < 0 ? axis + static_cast<int64_t>(shape.size()) : axis);
  const Shape normalized(shape.begin() + first, shape.end());
  Shape stats = shape;
  for (size_t d = first; d < shape.size(); ++d) stats[d] = 1;
  c.inputs["x"] = RandomTensor(shape, 74, -2.0f, 3.0f);
  c.constants["scale"] = RandomTensor(scalar_scale ? Shape{1} : normalized, 75, 0.5f, 2.0f);
  if (with_bias) {
    c.node.inputs.push_back("bias");
    c.constants["bias"] = RandomTensor(normalized, 76);
  }
  c.outputs["y"] = shape;
  if (with_stats) {
    c.node.outputs = {"y", "mean", "inv_std"};
    c.outputs["mean"] = stats;
    c.outputs["inv_std"] = stats;
  }
  return c;
}

TEST(NormalizationTest, InstanceNormalization) {
  ExpectMatchesReference(Instance({1, 5, 7, 13}));
  ExpectMatchesReference(Instance({2, 13, 127, 1}), SweepVariants());
  ExpectMatchesReference(Instance({1, 3, 13}), SweepVariants());
}

TEST(NormalizationTest, LayerNormalizationAxes) {
  ExpectMatchesReference(Layer({2, 5, 13}, -1), SweepVariants());  // transformer-style: the last dim
  ExpectMatchesReference(Layer({1, 3, 7, 13}, 2), SweepVariants());
  ExpectMatchesReference(Layer({2, 5, 7, 3}, 1, false), SweepVariants());
  ExpectMatchesReference(Layer({3, 5}, 0, true, true), SweepVariants());
  ExpectMatchesReference(Layer({1, 2, 3, 4, 5}, 3), SweepVariants());  // inside the folded middle dims
}

TEST(NormalizationTest, LayerNormalizationStatistics) {
  ExpectMatchesReference(Layer({2, 5, 7, 13}, 2, true, false, true), SweepVariants());
  ExpectMatchesReference(Layer({2, 5, 3}, 1, true, false, true), SweepVariants());
}

}  // namespace
}  // namespace glpool::testing
