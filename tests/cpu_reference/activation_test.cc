// Activation ops against values worked out from their ONNX definitions.
#include <cmath>

#include "tests/cpu_reference/cpu_reference_test_util.h"

namespace glpool {
namespace {

using testing_util::ExpectFloats;
using testing_util::Floats;
using testing_util::RunFloatOp;

const TensorData kX = Floats({4}, {-4, -1, 0, 2});

TEST(ActivationTest, Relu) { ExpectFloats(RunFloatOp("Relu", {kX}), {4}, {0, 0, 0, 2}); }

TEST(ActivationTest, ClipBoundsFromInputsAndAttributes) {
  // Opset 11+: bounds are inputs; before, attributes.
  ExpectFloats(RunFloatOp("Clip", {kX, Floats({}, {-2}), Floats({}, {1})}), {4}, {-2, -1, 0, 1});
  ExpectFloats(RunFloatOp("Clip", {kX}, {{"min", -2.0f}, {"max", 1.0f}}, 6), {4}, {-2, -1, 0, 1});
  ExpectFloats(RunFloatOp("Clip", {kX}), {4}, {-4, -1, 0, 2});
}

TEST(ActivationTest, ClipMinOnlyThroughAnOmittedInput) {
  const TensorData lo = Floats({}, {-1.5f});
  ExpectFloats(testing_util::RunOk(testing_util::MakeNode("Clip"), {&kX, &lo}), {4}, {-1.5f, -1, 0, 2});
  const TensorData hi = Floats({}, {0.5f});
  ExpectFloats(testing_util::RunOk(testing_util::MakeNode("Clip"), {&kX, nullptr, &hi}), {4},
               {-4, -1, 0, 0.5f});
}

TEST(ActivationTest, SigmoidTanh) {
  ExpectFloats(RunFloatOp("Sigmoid", {Floats({1}, {0})}), {1}, {0.5f});
  ExpectFloats(RunFloatOp("Tanh", {Floats({2}, {0, 1})}), {2}, {0, 0.76159416f});
}

TEST(ActivationTest, HardSigmoidAndHardSwish) {
  // HardSigmoid(x) = clamp(0.2 x + 0.5, 0, 1); HardSwish(x) = x * clamp(x/6 + 1/2, 0, 1).
  ExpectFloats(RunFloatOp("HardSigmoid", {kX}), {4}, {0, 0.3f, 0.5f, 0.9f});
  ExpectFloats(RunFloatOp("HardSigmoid", {kX}, {{"alpha", 0.5f}, {"beta", 0.0f}}), {4}, {0, 0, 0, 1});
  ExpectFloats(RunFloatOp("HardSwish", {kX}, {}, 14), {4}, {0, -1.0f / 3, 0, 2 * 5.0f / 6});
}

TEST(ActivationTest, LeakyReluEluSelu) {
  ExpectFloats(RunFloatOp("LeakyRelu", {kX}), {4}, {-0.04f, -0.01f, 0, 2});
  ExpectFloats(RunFloatOp("LeakyRelu", {kX}, {{"alpha", 0.5f}}), {4}, {-2, -0.5f, 0, 2});
  ExpectFloats(RunFloatOp("Elu", {kX}), {4}, {std::exp(-4.0f) - 1, std::exp(-1.0f) - 1, 0, 2});
  ExpectFloats(RunFloatOp("Selu", {Floats({2}, {-1, 1})}, {{"alpha", 2.0f}, {"gamma", 3.0f}}), {2},
               {3 * 2 * (std::exp(-1.0f) - 1), 3});
}

TEST(ActivationTest, PReluSlopePerChannel) {
  const TensorData x = Floats({1, 2, 1, 2}, {-1, 1, -2, 2});
  const TensorData slope = Floats({2, 1, 1}, {0.5f, 0.25f});
  ExpectFloats(RunFloatOp("PRelu", {x, slope}), {1, 2, 1, 2}, {-0.5f, 1, -0.5f, 2});
}

TEST(ActivationTest, SoftplusSoftsign) {
  ExpectFloats(RunFloatOp("Softplus", {Floats({1}, {0})}), {1}, {std::log(2.0f)});
  ExpectFloats(RunFloatOp("Softsign", {Floats({2}, {1, -3})}), {2}, {0.5f, -0.75f});
}

}  // namespace
}  // namespace glpool
