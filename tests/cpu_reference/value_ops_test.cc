// Ops that make or convert values: Constant, ConstantOfShape, Range, Shape,
// Cast, and seeded training-mode Dropout.
#include "tests/cpu_reference/cpu_reference_test_util.h"

namespace glpool {
namespace {

using testing_util::Bools;
using testing_util::ExpectFloats;
using testing_util::Floats;
using testing_util::Ints;
using testing_util::MakeNode;
using testing_util::RunOk;

TEST(ValueOpsTest, ConstantForms) {
  ExpectFloats(RunOk(MakeNode("Constant", 1, {{"value", Floats({2}, {1, 2})}}), {}), {2}, {1, 2});
  ExpectFloats(RunOk(MakeNode("Constant", 1, {{"value_float", 3.0f}}), {}), {}, {3});
  EXPECT_EQ(RunOk(MakeNode("Constant", 1, {{"value_ints", std::vector<int64_t>{4, 5}}}), {}).ToInt64s(),
            (std::vector<int64_t>{4, 5}));
}

TEST(ValueOpsTest, ConstantOfShapeDefaultsToFloatZero) {
  const TensorData shape = Ints({2}, {2, 1});
  ExpectFloats(RunOk(MakeNode("ConstantOfShape"), {&shape}), {2, 1}, {0, 0});
  const TensorData filled = RunOk(MakeNode("ConstantOfShape", 1, {{"value", Ints({1}, {7})}}), {&shape});
  EXPECT_EQ(filled.dtype, DataType::kInt64);
  EXPECT_EQ(filled.ToInt64s(), (std::vector<int64_t>{7, 7}));
}

TEST(ValueOpsTest, RangeFloatsAndInts) {
  const TensorData start = Ints({}, {1}), limit = Ints({}, {10}), delta = Ints({}, {3});
  EXPECT_EQ(RunOk(MakeNode("Range"), {&start, &limit, &delta}).ToInt64s(), (std::vector<int64_t>{1, 4, 7}));
  const TensorData fs = Floats({}, {1}), fl = Floats({}, {0}), fd = Floats({}, {-0.5f});
  ExpectFloats(RunOk(MakeNode("Range"), {&fs, &fl, &fd}), {2}, {1, 0.5f});
}

TEST(ValueOpsTest, ShapeWithStartAndEnd) {
  const TensorData x = Floats({2, 3, 4}, std::vector<float>(24, 0));
  EXPECT_EQ(RunOk(MakeNode("Shape"), {&x}).ToInt64s(), (std::vector<int64_t>{2, 3, 4}));
  EXPECT_EQ(RunOk(MakeNode("Shape", 1, {{"start", int64_t{-2}}}), {&x}, 15).ToInt64s(),
            (std::vector<int64_t>{3, 4}));
}

TEST(ValueOpsTest, CastTruncatesTowardZero) {
  const TensorData x = Floats({3}, {-1.7f, 2.9f, 0});
  const TensorData i = RunOk(MakeNode("Cast", 1, {{"to", int64_t{7}}}), {&x});
  EXPECT_EQ(i.dtype, DataType::kInt64);
  EXPECT_EQ(i.ToInt64s(), (std::vector<int64_t>{-1, 2, 0}));
  const TensorData b = RunOk(MakeNode("Cast", 1, {{"to", int64_t{9}}}), {&x});
  EXPECT_EQ(b.dtype, DataType::kBool);
  EXPECT_EQ(b.ToInt64s(), (std::vector<int64_t>{1, 1, 0}));
  const TensorData h = RunOk(MakeNode("Cast", 1, {{"to", int64_t{10}}}), {&x});
  EXPECT_EQ(h.dtype, DataType::kFloat16);
  EXPECT_NEAR(h.ToFloats()[1], 2.9f, 2e-3f);
}

TEST(ValueOpsTest, TrainingDropoutWithASeedFollowsNumpy) {
  // numpy.random.seed(0); uniform(size=6) = 0.5488, 0.7152, 0.6028, 0.5449,
  // 0.4237, 0.6459: with ratio 0.6 elements 1, 2 and 5 survive, scaled 2.5.
  const TensorData x = Floats({6}, {1, 1, 1, 1, 1, 1});
  const TensorData ratio = Floats({}, {0.6f});
  const TensorData training = Bools({}, {1});
  auto result = testing_util::RunOp(MakeNode("Dropout", 2, {{"seed", int64_t{0}}}), {&x, &ratio, &training});
  ASSERT_TRUE(result.ok()) << result.status().ToString();
  ExpectFloats((*result)[0], {6}, {0, 2.5f, 2.5f, 0, 0, 2.5f});
  EXPECT_EQ((*result)[1].ToInt64s(), (std::vector<int64_t>{0, 1, 1, 0, 0, 1}));
}

TEST(ValueOpsTest, TrainingDropoutWithoutASeedIsUnsupported) {
  const TensorData x = Floats({2}, {1, 1}), ratio = Floats({}, {0.5f}), training = Bools({}, {1});
  auto result = testing_util::RunOp(MakeNode("Dropout"), {&x, &ratio, &training});
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.status().code(), StatusCode::kUnsupported);
}

TEST(ValueOpsTest, InferenceDropoutIsIdentity) {
  const TensorData x = Floats({2}, {3, 4});
  ExpectFloats(RunOk(MakeNode("Dropout", 1, {{"ratio", 0.5f}}), {&x}, 10), {2}, {3, 4});
}

}  // namespace
}  // namespace glpool
