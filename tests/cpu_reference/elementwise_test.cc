// Broadcasting arithmetic, comparisons, Where and unary math.
#include <cmath>

#include "tests/cpu_reference/cpu_reference_test_util.h"

namespace glpool {
namespace {

using testing_util::Bools;
using testing_util::ExpectFloats;
using testing_util::Floats;
using testing_util::Ints;
using testing_util::RunFloatOp;
using testing_util::RunOk;
using testing_util::MakeNode;

TEST(ElementwiseTest, AddBroadcastsTrailingDims) {
  ExpectFloats(RunFloatOp("Add", {Floats({2, 3}, {1, 2, 3, 4, 5, 6}), Floats({3}, {10, 20, 30})}),
               {2, 3}, {11, 22, 33, 14, 25, 36});
}

TEST(ElementwiseTest, BroadcastBothWays) {
  ExpectFloats(RunFloatOp("Mul", {Floats({2, 1}, {1, 2}), Floats({1, 3}, {1, 10, 100})}), {2, 3},
               {1, 10, 100, 2, 20, 200});
}

TEST(ElementwiseTest, SubDivPow) {
  const TensorData a = Floats({3}, {8, 9, 2}), b = Floats({3}, {2, 3, 4});
  ExpectFloats(RunFloatOp("Sub", {a, b}), {3}, {6, 6, -2});
  ExpectFloats(RunFloatOp("Div", {a, b}), {3}, {4, 3, 0.5f});
  ExpectFloats(RunFloatOp("Pow", {a, b}), {3}, {64, 729, 16});
}

TEST(ElementwiseTest, IntegerDivisionTruncatesAndZeroIsAnError) {
  const TensorData a = Ints({2}, {-7, 7}), b = Ints({2}, {2, 2});
  EXPECT_EQ(RunOk(MakeNode("Div"), {&a, &b}).ToInt64s(), (std::vector<int64_t>{-3, 3}));
  const TensorData zero = Ints({1}, {0});
  auto result = testing_util::RunOp(MakeNode("Div"), {&a, &zero});
  ASSERT_FALSE(result.ok());
  EXPECT_NE(result.status().message().find("division by zero"), std::string::npos);
}

TEST(ElementwiseTest, LegacyBroadcastAlignsAtAxis) {
  // Opset 6: B of shape [3] added along axis 1 of a 2x3x2 tensor.
  const TensorData a = Floats({2, 3, 2}, std::vector<float>(12, 0));
  const TensorData b = Floats({3}, {1, 2, 3});
  ExpectFloats(RunFloatOp("Add", {a, b}, {{"broadcast", int64_t{1}}, {"axis", int64_t{1}}}, 6), {2, 3, 2},
               {1, 1, 2, 2, 3, 3, 1, 1, 2, 2, 3, 3});
}

TEST(ElementwiseTest, MixedDtypesAreRejected) {
  const TensorData a = Floats({1}, {1}), b = Ints({1}, {1});
  auto result = testing_util::RunOp(MakeNode("Add"), {&a, &b});
  ASSERT_FALSE(result.ok());
  EXPECT_NE(result.status().message().find("int64"), std::string::npos) << result.status().message();
}

TEST(ElementwiseTest, EqualAndWhere) {
  const TensorData a = Ints({3}, {1, 2, 3}), b = Ints({3}, {1, 0, 3});
  const TensorData eq = RunOk(MakeNode("Equal"), {&a, &b});
  EXPECT_EQ(eq.dtype, DataType::kBool);
  EXPECT_EQ(eq.ToInt64s(), (std::vector<int64_t>{1, 0, 1}));
  const TensorData x = Floats({3}, {1, 2, 3}), y = Floats({1}, {-1});
  ExpectFloats(RunOk(MakeNode("Where"), {&eq, &x, &y}), {3}, {1, -1, 3});
}

TEST(ElementwiseTest, VariadicMaxMinSumMean) {
  const TensorData a = Floats({2}, {1, 5}), b = Floats({2}, {4, 2}), c = Floats({1}, {3});
  ExpectFloats(RunFloatOp("Max", {a, b, c}), {2}, {4, 5});
  ExpectFloats(RunFloatOp("Min", {a, b, c}), {2}, {1, 2});
  ExpectFloats(RunFloatOp("Sum", {a, b, c}), {2}, {8, 10});
  ExpectFloats(RunFloatOp("Mean", {a, b, c}), {2}, {8 / 3.0f, 10 / 3.0f});
}

TEST(ElementwiseTest, UnaryMath) {
  const TensorData x = Floats({2}, {4, 0.25f});
  ExpectFloats(RunFloatOp("Sqrt", {x}), {2}, {2, 0.5f});
  ExpectFloats(RunFloatOp("Reciprocal", {x}), {2}, {0.25f, 4});
  ExpectFloats(RunFloatOp("Log", {Floats({1}, {1})}), {1}, {0});
  ExpectFloats(RunFloatOp("Exp", {Floats({1}, {1})}), {1}, {2.7182817f});
  ExpectFloats(RunFloatOp("Erf", {Floats({2}, {0, 0.5f})}), {2}, {0, 0.5204999f});
  ExpectFloats(RunFloatOp("Neg", {x}), {2}, {-4, -0.25f});
  ExpectFloats(RunFloatOp("Abs", {Floats({2}, {-3, 3})}), {2}, {3, 3});
  const TensorData i = Ints({2}, {-3, 4});
  EXPECT_EQ(RunOk(MakeNode("Neg"), {&i}).ToInt64s(), (std::vector<int64_t>{3, -4}));
}

TEST(ElementwiseTest, Float64IsRefusedWithAReason) {
  TensorData d;
  d.dtype = DataType::kFloat64;
  d.shape = {1};
  d.bytes.assign(8, 0);
  auto result = testing_util::RunOp(MakeNode("Relu"), {&d});
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.status().code(), StatusCode::kUnsupported);
  EXPECT_NE(result.status().message().find("float64"), std::string::npos);
}

}  // namespace
}  // namespace glpool
