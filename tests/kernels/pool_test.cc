#include <gtest/gtest.h>

#include <cmath>

#include "gpu_backend/kernels/kernel_ops.h"
#include "tests/kernels/kernel_test_util.h"

namespace glpool::testing {
namespace {

KernelCase Pool(const std::string& op, const Shape& in, const Shape& out) {
  KernelCase c;
  c.node.name = op + "_node";
  c.node.op_type = op;
  c.node.inputs = {"x"};
  c.node.outputs = {"y"};
  c.inputs["x"] = RandomTensor(in, 7, -2.0f, 2.0f);
  c.outputs["y"] = out;
  return c;
}

KernelCase Window(const std::string& op, const Shape& in, const Shape& out, std::vector<int64_t> kernel,
                  std::vector<int64_t> strides, std::vector<int64_t> pads = {}, bool ceil_mode = false) {
  KernelCase c = Pool(op, in, out);
  c.node.attributes["kernel_shape"] = kernel;
  c.node.attributes["strides"] = strides;
  if (!pads.empty()) c.node.attributes["pads"] = pads;
  if (ceil_mode) c.node.attributes["ceil_mode"] = int64_t{1};
  return c;
}

TEST(PoolTest, MaxPoolCeilModeOddChannels) {
  // u2netp's 2x2 / stride 2 ceil-mode pool on odd sizes.
  for (int64_t channels : {1, 3, 5, 13}) {
    SCOPED_TRACE("C=" + std::to_string(channels));
    ExpectMatchesReference(Window("MaxPool", {1, channels, 7, 13}, {1, channels, 4, 7}, {2, 2}, {2, 2}, {}, true),
                           channels == 5 ? AllVariants() : SweepVariants());
  }
  // squeezenet's 3x3 / stride 2 ceil-mode pool.
  ExpectMatchesReference(Window("MaxPool", {2, 5, 13, 13}, {2, 5, 6, 6}, {3, 3}, {2, 2}, {0, 0, 0, 0}, true),
                         SweepVariants());
}

TEST(PoolTest, MaxPoolPaddedDilated) {
  KernelCase c = Window("MaxPool", {1, 5, 7, 13}, {1, 5, 5, 11}, {3, 3}, {1, 1}, {1, 1, 1, 1});
  c.node.attributes["dilations"] = std::vector<int64_t>{2, 2};
  ExpectMatchesReference(c);
}

TEST(PoolTest, MaxPoolSameUpperAndOneD) {
  KernelCase same = Window("MaxPool", {1, 3, 127, 1}, {1, 3, 64, 1}, {3, 3}, {2, 2});
  same.node.attributes["auto_pad"] = std::string("SAME_UPPER");
  ExpectMatchesReference(same, SweepVariants());
  ExpectMatchesReference(Window("MaxPool", {1, 5, 13}, {1, 5, 6}, {3}, {2}), SweepVariants());
}

// 2-D MaxPools run as blocks of columns by rows (pool.cc
// PlanPoolBlocks): last blocks cut short at the right and bottom edges,
// two images whose blocks must not straddle, stride 1 with padding (every
// block's border cells in the padding, inputs negative as well), a wide
// window, floor mode leaving the last input row and column unread, and a
// window too large for blocks.
TEST(PoolTest, MaxPoolBlocksCrossEdges) {
  ExpectMatchesReference(Window("MaxPool", {2, 6, 19, 37}, {2, 6, 19, 37}, {3, 3}, {1, 1}, {1, 1, 1, 1}),
                         SweepVariants());
  ExpectMatchesReference(Window("MaxPool", {1, 4, 20, 20}, {1, 4, 20, 20}, {5, 5}, {1, 1}, {2, 2, 2, 2}));
  ExpectMatchesReference(Window("MaxPool", {1, 3, 9, 31}, {1, 3, 4, 15}, {2, 2}, {2, 2}));
  ExpectMatchesReference(Window("MaxPool", {1, 9, 23, 23}, {1, 9, 11, 11}, {3, 3}, {2, 2}, {0, 0, 0, 0}, true),
                         SweepVariants());
  // A window over the whole plane, too large to spell out: one output per
  // invocation instead.
  ExpectMatchesReference(Window("MaxPool", {1, 5, 40, 40}, {1, 5, 1, 1}, {40, 40}, {1, 1}));
}

bool RunsAsBlocks(const KernelCase& c) {
  const Graph graph = GraphOf(c);
  auto plan = BuildPool(graph, graph.nodes[0], KernelLimits{});
  EXPECT_TRUE(plan.ok()) << plan.status().ToString();
  return plan.ok() && PlanDefine(*plan, "BLOCKED") == "1";
}

// 2-D AveragePools run as the same blocks, dividing each output by its own
// window's count: padding at every edge of several-row blocks with and
// without count_include_pad, ceil mode whose last windows run past the
// end padding, a dilation, PP-OCRv4 rec's 3x2 window with strides (3, 2),
// two images and a 1-D pool. 3-D pools, MaxPool with Indices and a window
// too large to spell keep one output per invocation.
TEST(PoolTest, AveragePoolBlocksCountTheirOwnWindows) {
  for (int64_t include : {0, 1}) {
    SCOPED_TRACE("count_include_pad=" + std::to_string(include));
    KernelCase padded = Window("AveragePool", {2, 6, 19, 37}, {2, 6, 19, 37}, {3, 3}, {1, 1}, {1, 1, 1, 1});
    padded.node.attributes["count_include_pad"] = include;
    EXPECT_TRUE(RunsAsBlocks(padded));
    ExpectMatchesReference(padded, include ? AllVariants() : SweepVariants());
    KernelCase ceil = Window("AveragePool", {1, 5, 12, 17}, {1, 5, 6, 9}, {3, 3}, {2, 2}, {1, 0, 0, 1}, true);
    ceil.node.attributes["count_include_pad"] = include;
    EXPECT_TRUE(RunsAsBlocks(ceil));
    ExpectMatchesReference(ceil, SweepVariants());
  }
  KernelCase dilated = Window("AveragePool", {1, 5, 9, 13}, {1, 5, 7, 11}, {3, 3}, {1, 1}, {1, 1, 1, 1});
  dilated.node.attributes["dilations"] = std::vector<int64_t>{2, 2};
  EXPECT_TRUE(RunsAsBlocks(dilated));
  ExpectMatchesReference(dilated);
  const KernelCase rec = Window("AveragePool", {2, 9, 6, 40}, {2, 9, 2, 20}, {3, 2}, {3, 2});
  EXPECT_TRUE(RunsAsBlocks(rec));
  ExpectMatchesReference(rec, SweepVariants());
  const KernelCase one_d = Window("AveragePool", {1, 7, 29}, {1, 7, 14}, {3}, {2}, {1, 0});
  EXPECT_TRUE(RunsAsBlocks(one_d));
  ExpectMatchesReference(one_d, SweepVariants());
  EXPECT_FALSE(RunsAsBlocks(Window("AveragePool", {1, 5, 40, 40}, {1, 5, 1, 1}, {40, 40}, {1, 1})));
  EXPECT_FALSE(RunsAsBlocks(Window("AveragePool", {1, 3, 5, 7, 6}, {1, 3, 4, 6, 5}, {2, 2, 2}, {1, 1, 1})));
  KernelCase indices = Window("MaxPool", {1, 3, 7, 13}, {1, 3, 3, 6}, {2, 2}, {2, 2});
  indices.node.outputs.push_back("i");
  indices.outputs["i"] = Shape{1, 3, 3, 6};
  indices.output_dtypes["i"] = DataType::kInt64;
  EXPECT_FALSE(RunsAsBlocks(indices));
}

TEST(PoolTest, AveragePoolCountIncludePad) {
  // Asymmetric pads and ceil mode: the last row's window runs past the end
  // padding, which count_include_pad must not count.
  for (int64_t include : {0, 1}) {
    SCOPED_TRACE("count_include_pad=" + std::to_string(include));
    KernelCase c = Window("AveragePool", {2, 3, 7, 13}, {2, 3, 4, 7}, {3, 3}, {2, 2}, {0, 1, 1, 0}, true);
    c.node.attributes["count_include_pad"] = include;
    ExpectMatchesReference(c, include ? AllVariants() : SweepVariants());
  }
  KernelCase lower = Window("AveragePool", {1, 13, 7, 13}, {1, 13, 7, 13}, {2, 3}, {1, 1});
  lower.node.attributes["auto_pad"] = std::string("SAME_LOWER");
  ExpectMatchesReference(lower, SweepVariants());
}

TEST(PoolTest, ThreeDimensional) {
  ExpectMatchesReference(Window("MaxPool", {1, 5, 5, 7, 6}, {1, 5, 2, 3, 3}, {2, 3, 2}, {2, 2, 2}), SweepVariants());
  KernelCase c = Window("AveragePool", {2, 3, 4, 5, 5}, {2, 3, 4, 3, 2}, {2, 3, 3}, {1, 2, 2}, {0, 1, 1, 1, 1, 0});
  c.node.attributes["count_include_pad"] = int64_t{1};
  ExpectMatchesReference(c, SweepVariants());
}

TEST(PoolTest, GlobalPools) {
  for (int64_t channels : {1, 3, 5, 13}) {
    SCOPED_TRACE("C=" + std::to_string(channels));
    ExpectMatchesReference(Pool("GlobalAveragePool", {1, channels, 7, 13}, {1, channels, 1, 1}),
                           channels == 13 ? AllVariants() : SweepVariants());
  }
  ExpectMatchesReference(Pool("GlobalAveragePool", {2, 13, 127, 1}, {2, 13, 1, 1}), SweepVariants());
  ExpectMatchesReference(Pool("GlobalMaxPool", {1, 5, 7, 13}, {1, 5, 1, 1}));
  ExpectMatchesReference(Pool("GlobalMaxPool", {2, 5, 13}, {2, 5, 1}), SweepVariants());
  ExpectMatchesReference(Pool("GlobalAveragePool", {1, 3, 1, 1}, {1, 3, 1, 1}), SweepVariants());
  // A batch of small planes: a group per image, narrowed to a batch of
  // lanes along the slices where there are few images (LocalSize2D).
  ExpectMatchesReference(Pool("GlobalAveragePool", {3, 64, 5, 5}, {3, 64, 1, 1}));
  // Planes up to 1024 cells take one invocation per slice; larger ones the
  // work-group tree (pool.cc), at its edge and past it.
  ExpectMatchesReference(Pool("GlobalAveragePool", {2, 9, 32, 32}, {2, 9, 1, 1}), SweepVariants());
  ExpectMatchesReference(Pool("GlobalAveragePool", {2, 9, 33, 32}, {2, 9, 1, 1}), SweepVariants());
  ExpectMatchesReference(Pool("GlobalMaxPool", {1, 6, 45, 41}, {1, 6, 1, 1}), SweepVariants());
}

TEST(PoolTest, FusedActivation) {
  KernelCase c = Window("MaxPool", {1, 5, 7, 13}, {1, 5, 3, 6}, {2, 2}, {2, 2});
  c.node.attributes["fused_activation"] = std::string("Relu");
  ExpectMatchesReference(c, SweepVariants());
}

// MaxPool with its Indices output (int64, kept in fp32 storage in every
// variant). The input holds multiples of 1/8 in [-1, 1]: exact in fp16, and
// tied inside most windows, so the first-of-ties rule is exercised. Both
// outputs are then exact, and the tolerance is 0 (the comparison scales
// its tolerance by the largest reference value, an index here, which
// would otherwise hide an off-by-one).
KernelCase WithIndices(const Shape& in, const Shape& out, std::vector<int64_t> kernel, std::vector<int64_t> strides,
                       std::vector<int64_t> pads, int64_t storage_order) {
  KernelCase c = Window("MaxPool", in, out, kernel, strides, pads);
  std::vector<float> values = c.inputs["x"].ToFloats();
  for (float& v : values) v = std::round(v * 4.0f) / 8.0f;
  c.inputs["x"] = TensorData::FromFloats(in, values);
  c.node.outputs.push_back("i");
  c.node.attributes["storage_order"] = storage_order;
  c.outputs["i"] = out;
  c.output_dtypes["i"] = DataType::kInt64;
  return c;
}

TEST(PoolTest, MaxPoolIndices) {
  ExpectMatchesReference(WithIndices({2, 5, 7, 13}, {2, 5, 4, 7}, {3, 3}, {2, 2}, {1, 1, 1, 1}, 0), AllVariants(), 0,
                         0);
  for (int64_t channels : {1, 3, 13}) {
    SCOPED_TRACE("C=" + std::to_string(channels));
    ExpectMatchesReference(WithIndices({1, channels, 7, 13}, {1, channels, 3, 6}, {2, 2}, {2, 2}, {}, 1),
                           {SweepVariants()[1]}, 0, 0);
  }
  KernelCase dilated = WithIndices({1, 3, 7, 13}, {1, 3, 5, 11}, {3, 3}, {1, 1}, {1, 1, 1, 1}, 1);
  dilated.node.attributes["dilations"] = std::vector<int64_t>{2, 2};
  ExpectMatchesReference(dilated, SweepVariants(), 0, 0);
  ExpectMatchesReference(WithIndices({2, 5, 127}, {2, 5, 63}, {3}, {2}, {}, 0), SweepVariants(), 0, 0);
  for (int64_t storage_order : {0, 1}) {
    SCOPED_TRACE("storage_order=" + std::to_string(storage_order));
    ExpectMatchesReference(WithIndices({1, 5, 5, 7, 6}, {1, 5, 2, 3, 3}, {2, 3, 2}, {2, 2, 2}, {}, storage_order),
                           SweepVariants(), 0, 0);
  }
}

// Opset 19: AveragePool cells lie `dilations` apart; both divisors.
TEST(PoolTest, AveragePoolDilationsOfOpset19) {
  for (int64_t include : {0, 1}) {
    SCOPED_TRACE("count_include_pad=" + std::to_string(include));
    KernelCase c = Window("AveragePool", {1, 5, 13, 7}, {1, 5, 5, 4}, {3, 2}, {2, 2}, {1, 1, 0, 1}, true);
    c.node.attributes["dilations"] = std::vector<int64_t>{3, 2};
    c.node.attributes["count_include_pad"] = include;
    c.opset = 19;
    ExpectMatchesReference(c, SweepVariants());
  }
}

}  // namespace
}  // namespace glpool::testing
