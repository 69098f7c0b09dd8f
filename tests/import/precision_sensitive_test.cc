// Which tensors fp16 keeps in fp32 as a head's logits (precision_sensitive.h).
#include <gtest/gtest.h>

#include "gpu_backend/graph/fused_activation.h"
#include "gpu_backend/graph/precision_sensitive.h"
#include "graph_builder.h"

namespace glpool {
namespace {

using testing_util::GraphBuilder;

TEST(PrecisionSensitive, LogitsOfAnOutputSigmoidBackToTheirConv) {
  GraphBuilder b;
  b.Input("x", {1, 3, 8, 8})
      .Constant("w", {4, 3, 1, 1}, std::vector<float>(12, 0.1f))
      .Constant("bias", {1, 4, 1, 1}, {1, 2, 3, 4})
      .Op("Conv", {"x", "w"}, "features", {1, 4, 8, 8})
      .Op("Relu", {"features"}, "relu", {1, 4, 8, 8})
      .Op("Conv", {"relu", "w"}, "logits", {1, 4, 8, 8})
      .Op("Add", {"logits", "bias"}, "biased", {1, 4, 8, 8})
      .Op("Sigmoid", {"biased"}, "probabilities", {1, 4, 8, 8})
      .Op("Reshape", {"probabilities"}, "y", {4, 64})
      .Output("y");
  EXPECT_EQ(PrecisionSensitiveTensors(b.graph()), (std::set<std::string>{"logits", "biased"}));
}

TEST(PrecisionSensitive, GatesInsideTheNetworkStayHalf) {
  // A Swish (x * Sigmoid(x)) and a Softmax whose output feeds more compute.
  GraphBuilder b;
  b.Input("x", {1, 4})
      .Op("Sigmoid", {"x"}, "gate", {1, 4})
      .Op("Mul", {"x", "gate"}, "swish", {1, 4})
      .Op("Softmax", {"swish"}, "attention", {1, 4})
      .Op("MatMul", {"attention", "x"}, "y", {1, 4})
      .Output("y");
  EXPECT_TRUE(PrecisionSensitiveTensors(b.graph()).empty());
}

TEST(PrecisionSensitive, FusedSigmoidKeepsItsInputs) {
  GraphBuilder b;
  b.Input("x", {1, 2, 4, 4})
      .Constant("bias", {1, 2, 1, 1}, {0.5f, -0.5f})
      .Op("Relu", {"x"}, "logits", {1, 2, 4, 4})
      .Op("Add", {"logits", "bias"}, "y", {1, 2, 4, 4})
      .Output("y");
  SetFusedActivation(b.graph().nodes.back(), FusedActivation{"Sigmoid", {}});
  EXPECT_EQ(PrecisionSensitiveTensors(b.graph()), (std::set<std::string>{"logits"}));
}

}  // namespace
}  // namespace glpool
