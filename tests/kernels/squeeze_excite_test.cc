// SqueezeExcite, glpool's own node (graph.h, FuseSqueezeExcite): the GPU
// kernel against the CPU reference, with and without biases and hidden
// activation, channel counts that leave padding lanes (where the hidden
// activation of 0 is not 0), several images, more slices than invocations.
#include <gtest/gtest.h>

#include "tests/kernels/kernel_test_util.h"

namespace glpool::testing {
namespace {

struct SeSpec {
  Shape x;
  int64_t hidden = 3;
  int64_t out = 6;
  bool biases = true;
  std::string hidden_activation;  // "" none
  std::vector<float> hidden_params;
  std::string activation;  // the node's fused one
  std::vector<float> params;
};

KernelCase SqueezeExcite(const SeSpec& spec) {
  KernelCase c;
  c.node.name = "se";
  c.node.op_type = "SqueezeExcite";
  c.node.inputs = {"x", "w1", spec.biases ? "b1" : "", "w2", spec.biases ? "b2" : ""};
  c.node.outputs = {"y"};
  c.inputs["x"] = RandomTensor(spec.x, 21, -2.0f, 2.0f);
  c.constants["w1"] = RandomTensor({spec.hidden, spec.x[1], 1, 1}, 22);
  c.constants["w2"] = RandomTensor({spec.out, spec.hidden, 1, 1}, 23);
  if (spec.biases) {
    c.constants["b1"] = RandomTensor({spec.hidden}, 24);
    c.constants["b2"] = RandomTensor({spec.out}, 25);
  }
  if (!spec.hidden_activation.empty()) {
    c.node.attributes[kHiddenActivationAttr] = spec.hidden_activation;
    c.node.attributes[kHiddenActivationParamsAttr] = spec.hidden_params;
  }
  if (!spec.activation.empty()) {
    c.node.attributes[kFusedActivationAttr] = spec.activation;
    c.node.attributes[kFusedActivationParamsAttr] = spec.params;
  }
  c.outputs["y"] = {spec.x[0], spec.out, 1, 1};
  return c;
}

TEST(SqueezeExciteTest, MatchesTheReference) {
  SeSpec relu_hardsigmoid;  // MobileNetV3's and PP-LCNet's
  relu_hardsigmoid.x = {1, 6, 7, 5};
  relu_hardsigmoid.hidden_activation = "Relu";
  relu_hardsigmoid.activation = "HardSigmoid";
  relu_hardsigmoid.params = {1.0f / 6.0f, 0.5f};
  ExpectMatchesReference(SqueezeExcite(relu_hardsigmoid), AllVariants());

  SeSpec swish_sigmoid;  // EfficientNet's, two images, odd sizes
  swish_sigmoid.x = {2, 13, 3, 9};
  swish_sigmoid.hidden = 5;
  swish_sigmoid.out = 13;
  swish_sigmoid.hidden_activation = "Swish";
  swish_sigmoid.activation = "Sigmoid";
  ExpectMatchesReference(SqueezeExcite(swish_sigmoid), SweepVariants());

  SeSpec plain;  // no biases, no activations, a 1x1 plane
  plain.x = {1, 4, 1, 1};
  plain.hidden = 1;
  plain.out = 3;
  plain.biases = false;
  ExpectMatchesReference(SqueezeExcite(plain), SweepVariants());

  SeSpec wide;  // more slices than the work group's 64 invocations
  wide.x = {1, 300, 4, 4};
  wide.hidden = 270;
  wide.out = 290;
  wide.hidden_activation = "Clip";
  wide.hidden_params = {-0.5f, 0.5f};
  ExpectMatchesReference(SqueezeExcite(wide), SweepVariants());
}

TEST(SqueezeExciteTest, ShapesThatDoNotChainAreRefused) {
  SeSpec spec;
  spec.x = {1, 6, 7, 5};
  KernelCase c = SqueezeExcite(spec);
  c.constants["w2"] = RandomTensor({6, 4, 1, 1}, 23);  // expects [C2, 3, 1, 1]
  const Status status = CreateOnGpu(c);
  EXPECT_EQ(status.code(), StatusCode::kInvalidModel) << status.ToString();
  EXPECT_NE(status.message().find("do not chain"), std::string::npos) << status.ToString();
}

}  // namespace
}  // namespace glpool::testing
