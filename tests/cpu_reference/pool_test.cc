// MaxPool, AveragePool and the global pools against hand-computed values.
#include "tests/cpu_reference/cpu_reference_test_util.h"

namespace glpool {
namespace {

using testing_util::ExpectFloats;
using testing_util::Floats;
using testing_util::RunFloatOp;

std::vector<float> Iota(int n) {
  std::vector<float> v(n);
  for (int i = 0; i < n; ++i) v[i] = static_cast<float>(i + 1);
  return v;
}

TEST(MaxPoolTest, TwoByTwoStrideTwo) {
  ExpectFloats(RunFloatOp("MaxPool", {Floats({1, 1, 4, 4}, Iota(16))},
                          {{"kernel_shape", std::vector<int64_t>{2, 2}},
                           {"strides", std::vector<int64_t>{2, 2}}}),
               {1, 1, 2, 2}, {6, 8, 14, 16});
}

TEST(MaxPoolTest, CeilModeKeepsThePartialWindow) {
  const std::map<std::string, AttributeValue> attrs = {
      {"kernel_shape", std::vector<int64_t>{2, 2}}, {"strides", std::vector<int64_t>{2, 2}}};
  ExpectFloats(RunFloatOp("MaxPool", {Floats({1, 1, 3, 3}, Iota(9))}, attrs), {1, 1, 1, 1}, {5});
  auto ceil_attrs = attrs;
  ceil_attrs["ceil_mode"] = int64_t{1};
  ExpectFloats(RunFloatOp("MaxPool", {Floats({1, 1, 3, 3}, Iota(9))}, ceil_attrs), {1, 1, 2, 2},
               {5, 6, 8, 9});
}

TEST(MaxPoolTest, PaddingNeverWins) {
  const TensorData x = Floats({1, 1, 1, 2}, {-5, -3});
  ExpectFloats(RunFloatOp("MaxPool", {x}, {{"kernel_shape", std::vector<int64_t>{1, 2}},
                                           {"pads", std::vector<int64_t>{0, 1, 0, 1}}}),
               {1, 1, 1, 3}, {-5, -3, -3});
}

TEST(MaxPoolTest, IndicesFlattenRowMajor) {
  const TensorData x = Floats({1, 1, 2, 2}, {1, 4, 3, 2});
  auto result = testing_util::RunOp(
      testing_util::MakeNode("MaxPool", 2, {{"kernel_shape", std::vector<int64_t>{2, 2}}}), {&x});
  ASSERT_TRUE(result.ok()) << result.status().ToString();
  EXPECT_EQ((*result)[1].ToInt64s(), std::vector<int64_t>{1});
}

TEST(AveragePoolTest, CountIncludePadChangesTheDivisor) {
  const TensorData x = Floats({1, 1, 2, 2}, {1, 2, 3, 4});
  std::map<std::string, AttributeValue> attrs = {{"kernel_shape", std::vector<int64_t>{3, 3}},
                                                 {"pads", std::vector<int64_t>{1, 1, 1, 1}}};
  ExpectFloats(RunFloatOp("AveragePool", {x}, attrs), {1, 1, 2, 2}, {2.5f, 2.5f, 2.5f, 2.5f});
  attrs["count_include_pad"] = int64_t{1};
  ExpectFloats(RunFloatOp("AveragePool", {x}, attrs), {1, 1, 2, 2},
               {10 / 9.0f, 10 / 9.0f, 10 / 9.0f, 10 / 9.0f});
}

TEST(AveragePoolTest, OneDimensional) {
  ExpectFloats(RunFloatOp("AveragePool", {Floats({1, 1, 4}, {1, 3, 5, 7})},
                          {{"kernel_shape", std::vector<int64_t>{2}}}),
               {1, 1, 3}, {2, 4, 6});
}

TEST(GlobalPoolTest, AverageAndMaxPerChannel) {
  const TensorData x = Floats({1, 2, 2, 2}, {1, 2, 3, 4, -1, -2, -3, -8});
  ExpectFloats(RunFloatOp("GlobalAveragePool", {x}), {1, 2, 1, 1}, {2.5f, -3.5f});
  ExpectFloats(RunFloatOp("GlobalMaxPool", {x}), {1, 2, 1, 1}, {4, -1});
}

}  // namespace
}  // namespace glpool
