#include <gtest/gtest.h>

#include "tests/kernels/kernel_test_util.h"

namespace glpool::testing {
namespace {

KernelCase BatchNorm(const Shape& shape) {
  const int64_t channels = shape[1];
  KernelCase c;
  c.node.name = "bn_node";
  c.node.op_type = "BatchNormalization";
  c.node.inputs = {"x", "scale", "bias", "mean", "var"};
  c.node.outputs = {"y"};
  c.node.attributes["epsilon"] = 1e-3f;
  c.inputs["x"] = RandomTensor(shape, 61);
  c.constants["scale"] = RandomTensor({channels}, 62, 0.5f, 2.0f);
  c.constants["bias"] = RandomTensor({channels}, 63);
  c.constants["mean"] = RandomTensor({channels}, 64);
  c.constants["var"] = RandomTensor({channels}, 65, 0.1f, 2.0f);
  c.outputs["y"] = shape;
  return c;
}

TEST(BatchNormalizationTest, OddChannels) {
  for (int64_t channels : {1, 3, 5, 13}) {
    SCOPED_TRACE("C=" + std::to_string(channels));
    ExpectMatchesReference(BatchNorm({1, channels, 7, 13}), channels == 5 ? AllVariants() : SweepVariants());
  }
  ExpectMatchesReference(BatchNorm({2, 5, 127, 1}), SweepVariants());
  ExpectMatchesReference(BatchNorm({3, 5}), SweepVariants());
}

TEST(BatchNormalizationTest, StatisticsComputedAtRunTime) {
  KernelCase c = BatchNorm({1, 5, 7, 13});
  for (const char* name : {"scale", "mean", "var"}) {
    c.inputs[name] = c.constants[name];
    c.constants.erase(name);
  }
  ExpectMatchesReference(c, SweepVariants());
}

TEST(BatchNormalizationTest, FusedRelu) {
  KernelCase c = BatchNorm({1, 5, 7, 13});
  c.node.attributes["fused_activation"] = std::string("Relu");
  ExpectMatchesReference(c, SweepVariants());
}

}  // namespace
}  // namespace glpool::testing
