#include <gtest/gtest.h>

#include <array>
#include <string>
#include <vector>

#include "gpu_backend/kernels/conv_common.h"
#include "gpu_backend/kernels/kernel_ops.h"
#include "tests/kernels/conv_cases.h"
#include "tests/kernels/kernel_test_util.h"

// How conv plans keep llvmpipe's SIMD lanes busy (batches of kLaneBatch
// invocations along a work group's x): the work group's width, and narrow
// outputs that put whole rows in a block and their slice blocks along the
// lanes.
namespace glpool::testing {
namespace {

// Wider than a batch, a group is the multiple of a batch that leaves the
// fewest idle lanes past the width; the widest of equals.
TEST(ConvLaneUseTest, GroupWidthLeavesFewestIdleLanes) {
  EXPECT_EQ(LocalSize2D(36, 1, 64)[0], 8u);   // 5 groups of 8: 40 lanes, not 64
  EXPECT_EQ(LocalSize2D(23, 4, 64)[0], 8u);   // 24 lanes, not 32
  EXPECT_EQ(LocalSize2D(63, 1, 64)[0], 64u);  // 64 lanes whatever the width
  EXPECT_EQ(LocalSize2D(16, 9, 64)[0], 16u);
  EXPECT_EQ(LocalSize2D(5, 9, 64)[0], 8u);    // narrower than a batch: as before
  EXPECT_EQ(LocalSize2D(3, 9, 64)[0], 4u);
  EXPECT_EQ(LocalSize2D(36, 1, 16)[0], 8u);   // within the device's invocations
  EXPECT_EQ(LocalSize2D(36, 9, 64)[1], 8u);   // rows fill what is left
}

// Below KernelLimits::min_groups work groups, a group narrows: rows first,
// then its width down to a batch of lanes, never below.
TEST(ConvLaneUseTest, SmallDispatchesSpanEnoughGroups) {
  KernelLimits limits;
  limits.max_invocations = 64;
  limits.min_groups = 4;
  EXPECT_EQ(LocalSize2D(63, 1, 1, limits), (std::array<uint32_t, 3>{16, 1, 1}));  // 4 groups of 16, not 1 of 64
  EXPECT_EQ(LocalSize2D(8, 8, 1, limits), (std::array<uint32_t, 3>{8, 2, 1}));    // rows give way first
  EXPECT_EQ(LocalSize2D(63, 1, 4, limits), (std::array<uint32_t, 3>{64, 1, 1}));  // 4 along z already
  limits.min_groups = 64;
  EXPECT_EQ(LocalSize2D(63, 1, 1, limits), (std::array<uint32_t, 3>{8, 1, 1}));   // a batch of lanes at least
  limits.min_groups = 1;
  EXPECT_EQ(LocalSize2D(63, 1, 1, limits), LocalSize2D(63, 1, 64));
}

// A Gemm-shaped conv (1x1 output, 250 slices: 63 invocations) spans the
// groups the limits ask for and still matches the CPU reference (the
// executor on llvmpipe asks for two groups per thread).
TEST(ConvLaneUseTest, OneRowConvSpreadsOverGroups) {
  const KernelCase kernel_case = Conv(SameSizeSpec({1, 64, 1, 1}, 1000, 1));
  const Graph graph = GraphOf(kernel_case);
  KernelLimits limits;
  limits.min_groups = 8;
  auto plan = BuildConv(graph, graph.nodes[0], limits);
  ASSERT_TRUE(plan.ok()) << plan.status().ToString();
  EXPECT_EQ(PlanDefine(*plan, "LANES_ALONG_SLICES"), "1");
  EXPECT_EQ(PlanDefine(*plan, "WEIGHTS_BY_LANE_BATCH"), std::to_string(kLaneBatch));  // the last batch partial
  EXPECT_GE(plan->groups[0] * plan->groups[1] * plan->groups[2], 8u);
  EXPECT_GE(plan->local_size[0], 8u);
  ExpectMatchesReference(kernel_case);
}

// LaneBatchMajor moves each (output slice, input slice) block of 16 floats
// to [batch of 8 slice blocks][input slice][slice block][slice of the
// block], padding the last batch with zeros: 9 slice blocks of 2 slices over
// 3 input slices.
TEST(ConvLaneUseTest, LaneBatchMajorOrdersWeightsByBatchThenInputSlice) {
  const int64_t slice_blocks = 9, block = 2, in_slices = 3;
  std::vector<float> packed(static_cast<size_t>(slice_blocks * block * in_slices * 16));
  for (size_t i = 0; i < packed.size(); ++i) packed[i] = static_cast<float>(i + 1);
  const std::vector<float> reordered = LaneBatchMajor(packed, slice_blocks, block, in_slices);
  ASSERT_EQ(reordered.size(), static_cast<size_t>(2 * 8 * block * in_slices * 16));  // two batches
  auto block_at = [](const std::vector<float>& v, int64_t at) { return v[static_cast<size_t>(at * 16)]; };
  // Output slice 3 (slice block 1, its slice 1), input slice 2.
  EXPECT_EQ(block_at(reordered, ((0 * in_slices + 2) * 8 + 1) * block + 1), block_at(packed, 3 * in_slices + 2));
  // Output slice 16 (slice block 8: the second batch's first), input slice 1.
  EXPECT_EQ(block_at(reordered, ((1 * in_slices + 1) * 8 + 0) * block + 0), block_at(packed, 16 * in_slices + 1));
  // The second batch's slice block 1 does not exist: zeros.
  EXPECT_EQ(block_at(reordered, ((1 * in_slices + 0) * 8 + 1) * block + 0), 0.0f);
}

// The share of lanes computing real outputs: 13x13 in blocks of 2 columns by
// 8 rows (7 columns of blocks in a batch of 8, 16 rows for 13) against 63
// slice blocks of whole rows (one lane of 64 idle).
TEST(ConvLaneUseTest, LaneUseCountsIdleLanesAndRows) {
  EXPECT_DOUBLE_EQ(LaneUse(13, 13, 2, 8), 169.0 / 256.0);
  EXPECT_DOUBLE_EQ(SliceLaneUse(63, 13, 1), 63.0 / 64.0);
  EXPECT_DOUBLE_EQ(LaneUse(16, 1, 2, 1), 1.0);
  EXPECT_DOUBLE_EQ(SliceLaneUse(10, 7, 2), 10.0 / 16.0 * 7.0 / 8.0);
}

// The plan's lane axis for `spec` ("1": along the slices) and, when given,
// its block width; then the GPU against the CPU reference.
void ExpectLanes(const ConvSpec& spec, const std::string& lanes_along_slices, const std::string& out_pixels = "") {
  const KernelCase kernel_case = Conv(spec);
  const KernelPlan plan = ConvPlanOf(kernel_case);
  EXPECT_EQ(PlanDefine(plan, "LANES_ALONG_SLICES"), lanes_along_slices);
  if (!out_pixels.empty()) {
    EXPECT_EQ(PlanDefine(plan, "OUT_PIXELS"), out_pixels);
  }
  ExpectMatchesReference(kernel_case);
}

// Narrow outputs with enough slice blocks take whole rows, their slice
// blocks along the lanes, and match the CPU reference: pointwise and 3x3,
// a batch of 2 and a partial last slice (126 channels), and a grouped conv
// (one slice per block). A narrow output with few slice blocks keeps its
// column blocks.
TEST(ConvLaneUseTest, NarrowOutputsTakeWholeRowsAlongSlices) {
  for (int64_t k : {1, 3}) ExpectLanes(SameSizeSpec({2, 12, 9, 11}, 126, k), "1", "11");
  ConvSpec grouped = SameSizeSpec({1, 64, 7, 7}, 64, 3);
  grouped.group = 8;
  ExpectLanes(grouped, "1", "7");
  ExpectLanes(SameSizeSpec({1, 8, 7, 7}, 40, 1), "0");  // 10 slices: 3 blocks of 4
}

}  // namespace
}  // namespace glpool::testing
