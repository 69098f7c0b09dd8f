// Data movement: Transpose, DepthToSpace/SpaceToDepth, Reshape family,
// Concat/Split, Slice, Gather, Expand, Tile.
#include "tests/cpu_reference/cpu_reference_test_util.h"

namespace glpool {
namespace {

using testing_util::ExpectFloats;
using testing_util::Floats;
using testing_util::Ints;
using testing_util::MakeNode;
using testing_util::RunFloatOp;
using testing_util::RunOk;

std::vector<float> Range(int n) {
  std::vector<float> v(n);
  for (int i = 0; i < n; ++i) v[i] = static_cast<float>(i);
  return v;
}

TEST(LayoutTest, TransposeDefaultReversesDims) {
  const TensorData x = Floats({2, 3}, Range(6));
  ExpectFloats(RunFloatOp("Transpose", {x}), {3, 2}, {0, 3, 1, 4, 2, 5});
  const TensorData y = Floats({1, 2, 3}, Range(6));
  ExpectFloats(RunFloatOp("Transpose", {y}, {{"perm", std::vector<int64_t>{0, 2, 1}}}), {1, 3, 2},
               {0, 3, 1, 4, 2, 5});
}

TEST(LayoutTest, DepthToSpaceModes) {
  const TensorData x = Floats({1, 8, 1, 1}, Range(8));
  // DCR: channel (i * 2 + j) * 2 + c; CRD: c * 4 + i * 2 + j.
  ExpectFloats(RunFloatOp("DepthToSpace", {x}, {{"blocksize", int64_t{2}}}), {1, 2, 2, 2},
               {0, 2, 4, 6, 1, 3, 5, 7});
  ExpectFloats(RunFloatOp("DepthToSpace", {x}, {{"blocksize", int64_t{2}}, {"mode", std::string("CRD")}}),
               {1, 2, 2, 2}, {0, 1, 2, 3, 4, 5, 6, 7});
}

TEST(LayoutTest, SpaceToDepthInvertsDcr) {
  const TensorData x = Floats({1, 1, 2, 2}, {0, 1, 2, 3});
  ExpectFloats(RunFloatOp("SpaceToDepth", {x}, {{"blocksize", int64_t{2}}}), {1, 4, 1, 1}, {0, 1, 2, 3});
}

TEST(LayoutTest, ReshapeCopiesZeroAndInfersMinusOne) {
  const TensorData x = Floats({2, 3, 4}, Range(24));
  const TensorData shape = Ints({3}, {0, -1, 2});
  const TensorData y = RunOk(MakeNode("Reshape"), {&x, &shape});
  EXPECT_EQ(y.shape, (Shape{2, 6, 2}));
  const TensorData bad = Ints({2}, {5, -1});
  EXPECT_FALSE(testing_util::RunOp(MakeNode("Reshape"), {&x, &bad}).ok());
}

TEST(LayoutTest, FlattenSqueezeUnsqueeze) {
  const TensorData x = Floats({2, 1, 3, 1}, Range(6));
  EXPECT_EQ(RunFloatOp("Flatten", {x}, {{"axis", int64_t{2}}}).shape, (Shape{2, 3}));
  EXPECT_EQ(RunFloatOp("Flatten", {x}, {{"axis", int64_t{0}}}).shape, (Shape{1, 6}));
  EXPECT_EQ(RunFloatOp("Squeeze", {x}).shape, (Shape{2, 3}));
  const TensorData axes = Ints({1}, {-1});
  EXPECT_EQ(RunOk(MakeNode("Squeeze"), {&x, &axes}).shape, (Shape{2, 1, 3}));
  EXPECT_EQ(RunOk(MakeNode("Squeeze", 1, {{"axes", std::vector<int64_t>{1}}}), {&x}, 11).shape,
            (Shape{2, 3, 1}));
  const TensorData unsq = Ints({2}, {0, 3});
  const TensorData v = Floats({2, 3}, Range(6));
  EXPECT_EQ(RunOk(MakeNode("Unsqueeze"), {&v, &unsq}).shape, (Shape{1, 2, 3, 1}));
}

TEST(LayoutTest, ConcatAlongTheMiddleAxis) {
  const TensorData a = Floats({2, 1}, {1, 2}), b = Floats({2, 2}, {3, 4, 5, 6});
  ExpectFloats(RunFloatOp("Concat", {a, b}, {{"axis", int64_t{1}}}), {2, 3}, {1, 3, 4, 2, 5, 6});
  const TensorData c = Floats({3, 1}, {0, 0, 0});
  EXPECT_FALSE(testing_util::RunOp(MakeNode("Concat", 1, {{"axis", int64_t{1}}}), {&a, &c}).ok());
}

TEST(LayoutTest, SplitBySizesAndEvenly) {
  const TensorData x = Floats({5}, Range(5));
  const TensorData sizes = Ints({2}, {2, 3});
  auto parts = testing_util::RunOp(MakeNode("Split", 2), {&x, &sizes});
  ASSERT_TRUE(parts.ok()) << parts.status().ToString();
  ExpectFloats((*parts)[0], {2}, {0, 1});
  ExpectFloats((*parts)[1], {3}, {2, 3, 4});
  const TensorData y = Floats({2, 2}, Range(4));
  auto halves = testing_util::RunOp(MakeNode("Split", 2, {{"axis", int64_t{1}}}), {&y});
  ASSERT_TRUE(halves.ok());
  ExpectFloats((*halves)[0], {2, 1}, {0, 2});
  ExpectFloats((*halves)[1], {2, 1}, {1, 3});
}

TEST(LayoutTest, SliceStepsAndClamping) {
  const TensorData x = Floats({10}, Range(10));
  const TensorData starts = Ints({1}, {2}), ends = Ints({1}, {-2}), axes = Ints({1}, {0}),
                   steps = Ints({1}, {3});
  ExpectFloats(RunOk(MakeNode("Slice"), {&x, &starts, &ends, &axes, &steps}), {2}, {2, 5});
  const TensorData back_start = Ints({1}, {-1}), back_end = Ints({1}, {-100}), back = Ints({1}, {-2});
  ExpectFloats(RunOk(MakeNode("Slice"), {&x, &back_start, &back_end, &axes, &back}), {5}, {9, 7, 5, 3, 1});
  const TensorData far = Ints({1}, {1000});
  ExpectFloats(RunOk(MakeNode("Slice"), {&x, &ends, &far}), {2}, {8, 9});
}

TEST(LayoutTest, SliceOpset9Attributes) {
  const TensorData x = Floats({2, 3}, Range(6));
  ExpectFloats(RunOk(MakeNode("Slice", 1, {{"starts", std::vector<int64_t>{1}},
                                           {"ends", std::vector<int64_t>{3}},
                                           {"axes", std::vector<int64_t>{1}}}),
                     {&x}, 9),
               {2, 2}, {1, 2, 4, 5});
}

TEST(LayoutTest, GatherTakesAlongAnAxis) {
  const TensorData x = Floats({2, 3}, Range(6));
  const TensorData idx = Ints({2}, {2, -3});
  ExpectFloats(RunOk(MakeNode("Gather", 1, {{"axis", int64_t{1}}}), {&x, &idx}), {2, 2}, {2, 0, 5, 3});
  const TensorData rows = Ints({1, 1}, {1});
  ExpectFloats(RunOk(MakeNode("Gather"), {&x, &rows}), {1, 1, 3}, {3, 4, 5});
  const TensorData bad = Ints({1}, {3});
  EXPECT_FALSE(testing_util::RunOp(MakeNode("Gather"), {&x, &bad}).ok());
}

TEST(LayoutTest, ExpandAndTile) {
  const TensorData x = Floats({2, 1}, {1, 2});
  const TensorData shape = Ints({2}, {2, 3});
  ExpectFloats(RunOk(MakeNode("Expand"), {&x, &shape}), {2, 3}, {1, 1, 1, 2, 2, 2});
  const TensorData repeats = Ints({2}, {2, 2});
  ExpectFloats(RunOk(MakeNode("Tile"), {&x, &repeats}), {4, 2}, {1, 1, 2, 2, 1, 1, 2, 2});
}

}  // namespace
}  // namespace glpool
