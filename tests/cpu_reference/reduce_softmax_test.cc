// Reductions (attribute and input axes) and the softmax family in both
// opset semantics.
#include <cmath>

#include "tests/cpu_reference/cpu_reference_test_util.h"

namespace glpool {
namespace {

using testing_util::ExpectFloats;
using testing_util::Floats;
using testing_util::Ints;
using testing_util::MakeNode;
using testing_util::RunFloatOp;
using testing_util::RunOk;

const TensorData kMatrix = Floats({2, 3}, {1, 2, 3, 4, 5, 6});

TEST(ReduceTest, MeanMaxOverAttributeAxes) {
  ExpectFloats(RunFloatOp("ReduceMean", {kMatrix}, {{"axes", std::vector<int64_t>{1}}, {"keepdims", int64_t{0}}}),
               {2}, {2, 5});
  ExpectFloats(RunFloatOp("ReduceMax", {kMatrix}), {1, 1}, {6});
  ExpectFloats(RunFloatOp("ReduceMax", {kMatrix}, {{"axes", std::vector<int64_t>{-2}}}), {1, 3}, {4, 5, 6});
}

TEST(ReduceTest, SumTakesAxesAsAnInputFromOpset13) {
  const TensorData axes = Ints({1}, {0});
  ExpectFloats(RunOk(MakeNode("ReduceSum"), {&kMatrix, &axes}), {1, 3}, {5, 7, 9});
  ExpectFloats(RunOk(MakeNode("ReduceSum", 1, {{"axes", std::vector<int64_t>{0}}}), {&kMatrix}, 11), {1, 3},
               {5, 7, 9});
  ExpectFloats(RunOk(MakeNode("ReduceSum"), {&kMatrix}), {1, 1}, {21});
  const TensorData none = Ints({0}, {});
  ExpectFloats(RunOk(MakeNode("ReduceSum", 1, {{"noop_with_empty_axes", int64_t{1}}}), {&kMatrix, &none}),
               {2, 3}, {1, 2, 3, 4, 5, 6});
}

TEST(ReduceTest, OtherReductions) {
  const std::map<std::string, AttributeValue> rows = {{"axes", std::vector<int64_t>{1}}, {"keepdims", int64_t{0}}};
  ExpectFloats(RunFloatOp("ReduceMin", {kMatrix}, rows), {2}, {1, 4});
  ExpectFloats(RunFloatOp("ReduceProd", {kMatrix}, rows), {2}, {6, 120});
  ExpectFloats(RunFloatOp("ReduceSumSquare", {kMatrix}, rows), {2}, {14, 77});
  ExpectFloats(RunFloatOp("ReduceL2", {kMatrix}, rows), {2}, {std::sqrt(14.0f), std::sqrt(77.0f)});
}

TEST(SoftmaxTest, Opset13NormalizesOneAxis) {
  const TensorData x = Floats({2, 2}, {1, 2, 3, 4});
  const float a = 1 / (1 + std::exp(2.0f));  // exp(1) / (exp(1) + exp(3))
  ExpectFloats(RunFloatOp("Softmax", {x}, {{"axis", int64_t{0}}}), {2, 2}, {a, a, 1 - a, 1 - a});
  const float b = 1 / (1 + std::exp(1.0f));
  ExpectFloats(RunFloatOp("Softmax", {x}), {2, 2}, {b, 1 - b, b, 1 - b});
}

TEST(SoftmaxTest, BeforeOpset13TheInputIsFlattenedAtAxis) {
  const TensorData x = Floats({2, 2}, {1, 2, 3, 4});
  // axis 0 flattens everything into one row of four.
  const float sum = std::exp(1.0f) + std::exp(2.0f) + std::exp(3.0f) + std::exp(4.0f);
  ExpectFloats(RunFloatOp("Softmax", {x}, {{"axis", int64_t{0}}}, 11), {2, 2},
               {std::exp(1.0f) / sum, std::exp(2.0f) / sum, std::exp(3.0f) / sum, std::exp(4.0f) / sum});
}

TEST(SoftmaxTest, LogSoftmaxIsTheLogOfSoftmax) {
  const TensorData x = Floats({2}, {0, 0});
  ExpectFloats(RunFloatOp("LogSoftmax", {x}), {2}, {std::log(0.5f), std::log(0.5f)});
}

}  // namespace
}  // namespace glpool
