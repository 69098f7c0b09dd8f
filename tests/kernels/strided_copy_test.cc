#include <gtest/gtest.h>

#include <limits>

#include "gpu_backend/cpu_reference/executor.h"
#include "tests/kernels/kernel_test_util.h"

namespace glpool::testing {
namespace {

KernelCase Copy(const std::string& op, const Shape& in, const std::vector<Shape>& outs) {
  KernelCase c;
  c.node.name = op + "_node";
  c.node.op_type = op;
  c.node.inputs = {"x"};
  c.inputs["x"] = RandomTensor(in, 31);
  for (size_t j = 0; j < outs.size(); ++j) {
    const std::string name = "y" + std::to_string(j);
    c.node.outputs.push_back(name);
    c.outputs[name] = outs[j];
  }
  return c;
}

KernelCase Transpose(const Shape& in, const std::vector<int64_t>& perm) {
  Shape out;
  for (int64_t p : perm) out.push_back(in[p]);
  KernelCase c = Copy("Transpose", in, {out});
  c.node.attributes["perm"] = perm;
  return c;
}

TEST(TransposeTest, Permutations) {
  ExpectMatchesReference(Transpose({1, 5, 7, 13}, {0, 2, 3, 1}));                   // NCHW -> NHWC
  ExpectMatchesReference(Transpose({1, 7, 13, 3}, {0, 3, 1, 2}), SweepVariants());  // NHWC -> NCHW
  ExpectMatchesReference(Transpose({2, 13, 127, 1}, {0, 1, 3, 2}));                 // channel kept: vec4 path
  ExpectMatchesReference(Transpose({3, 5}, {1, 0}), SweepVariants());
  ExpectMatchesReference(Transpose({2, 3, 4, 5, 3}, {0, 3, 1, 4, 2}), SweepVariants());
}

// A channel shuffle folded into one Transpose (FoldReshapesIntoTransposes):
// [1,12,5,3] read as [1,3,4,5,3], permuted to [1,4,3,5,3], written as
// [1,12,5,3]. The GPU matches the CPU reference, and the CPU reference's
// relabelling matches a plain Transpose of the reshaped input, reshaped.
TEST(TransposeTest, ReadAsAndWriteAsRelabelShapes) {
  KernelCase shuffle = Copy("Transpose", {1, 12, 5, 3}, {{1, 12, 5, 3}});
  shuffle.node.attributes["perm"] = std::vector<int64_t>{0, 2, 1, 3, 4};
  shuffle.node.attributes[kReadInputAsAttr] = std::vector<int64_t>{1, 3, 4, 5, 3};
  shuffle.node.attributes[kWriteOutputAsAttr] = std::vector<int64_t>{1, 12, 5, 3};
  ExpectMatchesReference(shuffle, SweepVariants());

  TensorData as_read = shuffle.inputs["x"];
  as_read.shape = {1, 3, 4, 5, 3};
  Node plain = shuffle.node;
  plain.attributes.erase(kReadInputAsAttr);
  plain.attributes.erase(kWriteOutputAsAttr);
  auto expected = cpu_reference::RunNode(plain, 13, {&as_read});
  auto relabelled = cpu_reference::RunNode(shuffle.node, 13, {&shuffle.inputs["x"]});
  ASSERT_TRUE(expected.ok()) << expected.status().ToString();
  ASSERT_TRUE(relabelled.ok()) << relabelled.status().ToString();
  EXPECT_EQ((*expected)[0].shape, (Shape{1, 4, 3, 5, 3}));
  EXPECT_EQ((*relabelled)[0].shape, (Shape{1, 12, 5, 3}));
  EXPECT_EQ((*relabelled)[0].ToFloats(), (*expected)[0].ToFloats());
  // Channels really move: the shuffle is not the identity.
  EXPECT_NE((*relabelled)[0].ToFloats(), shuffle.inputs["x"].ToFloats());

  // A shape of another size is an error, not a silent misread.
  KernelCase wrong = shuffle;
  wrong.node.attributes[kReadInputAsAttr] = std::vector<int64_t>{1, 3, 4, 5, 4};
  EXPECT_FALSE(cpu_reference::RunNode(wrong.node, 13, {&wrong.inputs["x"]}).ok());
  EXPECT_FALSE(CreateOnGpu(wrong).ok());
}

KernelCase Slice(const Shape& in, const Shape& out, std::vector<int64_t> starts, std::vector<int64_t> ends,
                 std::vector<int64_t> axes, std::vector<int64_t> steps) {
  KernelCase c = Copy("Slice", in, {out});
  c.node.inputs = {"x", "starts", "ends", "axes", "steps"};
  const int64_t n = static_cast<int64_t>(starts.size());
  c.constants["starts"] = TensorData::FromInt64s({n}, starts);
  c.constants["ends"] = TensorData::FromInt64s({n}, ends);
  c.constants["axes"] = TensorData::FromInt64s({n}, axes);
  c.constants["steps"] = TensorData::FromInt64s({n}, steps);
  return c;
}

TEST(SliceTest, StartsEndsSteps) {
  // Channels at an unaligned start (lanes), at an aligned one (vec4s).
  ExpectMatchesReference(Slice({1, 13, 7, 13}, {1, 5, 7, 13}, {3}, {8}, {1}, {1}));
  ExpectMatchesReference(Slice({1, 13, 7, 13}, {1, 9, 7, 13}, {4}, {100}, {1}, {1}), SweepVariants());
  // Spatial axes with steps, negative ones included.
  ExpectMatchesReference(Slice({1, 5, 7, 13}, {1, 5, 3, 4}, {1, -1}, {7, 0}, {2, 3}, {2, -3}), SweepVariants());
  ExpectMatchesReference(Slice({2, 3, 127, 1}, {2, 3, 63, 1}, {-1, 0}, {-3, 126}, {0, 2}, {-1, 2}), SweepVariants());
  ExpectMatchesReference(Slice({13}, {4}, {2}, {10}, {0}, {2}), SweepVariants());
}

// Steps of +-2^63-ish pick one element (numpy: x[7:0:-2**63] == [x[7]]);
// they once overflowed the count and reached the shader as a literal GLSL
// cannot hold.
TEST(SliceTest, StepsLongerThanTheAxis) {
  const int64_t min = std::numeric_limits<int64_t>::min(), max = std::numeric_limits<int64_t>::max();
  ExpectMatchesReference(Slice({1, 3, 8, 8}, {1, 3, 8, 1}, {7}, {0}, {3}, {min}), SweepVariants());
  ExpectMatchesReference(Slice({1, 3, 8, 8}, {1, 3, 1, 8}, {0}, {8}, {2}, {max}), SweepVariants());
  ExpectMatchesReference(Slice({1, 9, 4, 4}, {1, 1, 4, 4}, {-1}, {min}, {1}, {min}), SweepVariants());
}

TEST(SplitTest, ChannelAndSpatialAxes) {
  KernelCase channels = Copy("Split", {1, 13, 7, 13}, {{1, 3, 7, 13}, {1, 5, 7, 13}, {1, 5, 7, 13}});
  channels.node.attributes["axis"] = int64_t{1};
  channels.node.inputs = {"x", "split"};
  channels.constants["split"] = TensorData::FromInt64s({3}, {3, 5, 5});
  ExpectMatchesReference(channels);
  KernelCase aligned = Copy("Split", {1, 13, 7, 13}, {{1, 8, 7, 13}, {1, 5, 7, 13}});
  aligned.node.attributes["axis"] = int64_t{1};
  aligned.node.inputs = {"x", "split"};
  aligned.constants["split"] = TensorData::FromInt64s({2}, {8, 5});
  ExpectMatchesReference(aligned, SweepVariants());
  KernelCase spatial = Copy("Split", {2, 5, 7, 13}, {{2, 5, 7, 6}, {2, 5, 7, 7}});
  spatial.node.attributes["axis"] = int64_t{-1};
  spatial.node.inputs = {"x", "split"};
  spatial.constants["split"] = TensorData::FromInt64s({2}, {6, 7});
  ExpectMatchesReference(spatial, SweepVariants());
}

// The shader each copy runs: copies that only move channels (a folded
// channel shuffle, a Slice or Split along C starting inside a slice) read
// channel_copy's table; whole-texel and other copies stay strided copies.
// The cases above check both against the CPU reference.
TEST(ChannelCopyTest, ChannelOnlyCopiesReadATable) {
  KernelCase shuffle = Copy("Transpose", {2, 12, 5, 3}, {{2, 12, 5, 3}});
  shuffle.node.attributes["perm"] = std::vector<int64_t>{0, 2, 1, 3, 4};
  shuffle.node.attributes[kReadInputAsAttr] = std::vector<int64_t>{2, 3, 4, 5, 3};
  shuffle.node.attributes[kWriteOutputAsAttr] = std::vector<int64_t>{2, 12, 5, 3};
  KernelCase shuffle4 = Copy("Transpose", {2, 16, 5, 3}, {{2, 16, 5, 3}});  // four groups of 4
  shuffle4.node.attributes["perm"] = std::vector<int64_t>{0, 2, 1, 3, 4};
  shuffle4.node.attributes[kReadInputAsAttr] = std::vector<int64_t>{2, 4, 4, 5, 3};
  shuffle4.node.attributes[kWriteOutputAsAttr] = std::vector<int64_t>{2, 16, 5, 3};
  KernelCase split = Copy("Split", {1, 13, 7, 13}, {{1, 3, 7, 13}, {1, 5, 7, 13}, {1, 5, 7, 13}});
  split.node.attributes["axis"] = int64_t{1};
  split.node.inputs = {"x", "split"};
  split.constants["split"] = TensorData::FromInt64s({3}, {3, 5, 5});
  const struct {
    const char* what;
    KernelCase c;
    const char* shader;
  } cases[] = {
      {"channel shuffle", shuffle, "channel_copy"},
      {"channel shuffle in 4 groups", shuffle4, "channel_copy"},
      {"Slice from channel 3", Slice({1, 13, 7, 13}, {1, 5, 7, 13}, {3}, {8}, {1}, {1}), "channel_copy"},
      {"Split at channel 3", split, "channel_copy"},
      {"Slice from channel 4", Slice({1, 13, 7, 13}, {1, 9, 7, 13}, {4}, {100}, {1}, {1}), "strided_copy"},
      {"NCHW -> NHWC", Transpose({1, 5, 7, 13}, {0, 2, 3, 1}), "strided_copy"},
      {"Slice along W", Slice({1, 5, 7, 13}, {1, 5, 7, 4}, {1}, {9}, {3}, {2}), "strided_copy"},
  };
  for (const auto& [what, c, shader] : cases) {
    ExpectMatchesReference(c, SweepVariants());
    StatusOr<std::vector<TaskInfo>> tasks = TasksOnGpu(c, ExecutorOptions{});
    ASSERT_TRUE(tasks.ok()) << what << ": " << tasks.status().ToString();
    ASSERT_EQ(tasks->size(), 1u) << what;
    EXPECT_EQ((*tasks)[0].shader, shader) << what;
  }
}

TEST(DepthToSpaceTest, BothModesAndInverse) {
  for (const char* mode : {"DCR", "CRD"}) {
    SCOPED_TRACE(mode);
    KernelCase c = Copy("DepthToSpace", {1, 12, 7, 13}, {{1, 3, 14, 26}});
    c.node.attributes["blocksize"] = int64_t{2};
    c.node.attributes["mode"] = std::string(mode);
    ExpectMatchesReference(c, SweepVariants());
  }
  KernelCase s2d = Copy("SpaceToDepth", {1, 5, 14, 26}, {{1, 20, 7, 13}});
  s2d.node.attributes["blocksize"] = int64_t{2};
  ExpectMatchesReference(s2d, SweepVariants());
}

TEST(ExpandTileTest, Broadcasts) {
  KernelCase expand = Copy("Expand", {5, 1, 13}, {{2, 5, 7, 13}});
  expand.node.inputs = {"x", "shape"};
  expand.constants["shape"] = TensorData::FromInt64s({4}, {2, 1, 7, 1});
  ExpectMatchesReference(expand, SweepVariants());
  KernelCase tile = Copy("Tile", {1, 3, 7, 5}, {{2, 6, 7, 10}});
  tile.node.inputs = {"x", "repeats"};
  tile.constants["repeats"] = TensorData::FromInt64s({4}, {2, 2, 1, 2});
  ExpectMatchesReference(tile, SweepVariants());
}

TEST(ReshapeCopyTest, LayoutChangingReshapes) {
  KernelCase flatten = Copy("Flatten", {1, 5, 7, 13}, {{1, 455}});
  ExpectMatchesReference(flatten, SweepVariants());
  KernelCase reshape = Copy("Reshape", {1, 13, 7, 13}, {{1, 13, 91}});  // N, C kept: vec4 path
  reshape.node.inputs = {"x", "shape"};
  reshape.constants["shape"] = TensorData::FromInt64s({3}, {1, 13, 91});
  ExpectMatchesReference(reshape, SweepVariants());
}

TEST(DropoutTest, InferenceCopyAndMask) {
  KernelCase masked = Copy("Dropout", {1, 5, 7, 13}, {{1, 5, 7, 13}, {1, 5, 7, 13}});
  masked.output_dtypes["y1"] = DataType::kBool;  // all true in inference
  ExpectMatchesReference(masked);
  KernelCase ratio = Copy("Dropout", {3, 13}, {{3, 13}, {3, 13}});
  ratio.output_dtypes["y1"] = DataType::kBool;
  ratio.node.inputs = {"x", "ratio", "training_mode"};
  ratio.constants["ratio"] = TensorData::FromFloats({}, {0.25f});
  ratio.constants["training_mode"] = TypedTensor(DataType::kBool, {}, {0});
  ExpectMatchesReference(ratio, SweepVariants());
}

}  // namespace
}  // namespace glpool::testing
