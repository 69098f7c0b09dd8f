#include <gtest/gtest.h>

#include <string>

#include "gpu_backend/kernels/conv_common.h"
#include "gpu_backend/kernels/kernel_ops.h"
#include "tests/kernels/conv_cases.h"
#include "tests/kernels/kernel_test_util.h"

// Conv's loops spelled out by the plan (shaders/conv.comp FOR_IN_ROWS,
// FOR_TAPS, FOR_IN_SLICES): which convs get them, and that they compute
// what the CPU reference does.
namespace glpool::testing {
namespace {

// Depthwise blocks grow rows to kDepthwiseTargetBlock pixels and spell
// their input rows out (FOR_IN_ROWS: (rows - 1) * stride + (k - 1) *
// dilation + 1 of them). Heights that leave a partial last block, padding
// rows at the top and bottom of several-row blocks, a stride, a dilated
// 5x5 and whole rows match the CPU reference.
TEST(ConvTest, DepthwiseRowsGrowToTheirTargetBlock) {
  EXPECT_EQ(OutputRowsPerInvocation(56, 7, kDepthwiseTargetBlock), 4);
  EXPECT_EQ(OutputRowsPerInvocation(14, 14, kDepthwiseTargetBlock), 2);
  EXPECT_EQ(OutputRowsPerInvocation(28, 28, kDepthwiseTargetBlock), 1);
  EXPECT_EQ(OutputRowsPerInvocation(7, 1, kDepthwiseTargetBlock), 8);
  struct Case {
    int64_t channels, height, width, k, stride, dilation;
  };
  for (const Case& c : {Case{6, 13, 56, 3, 1, 1}, Case{5, 11, 111, 3, 2, 1}, Case{9, 10, 40, 5, 1, 2},
                        Case{36, 9, 14, 3, 1, 1}}) {
    SCOPED_TRACE("C " + std::to_string(c.channels) + " H " + std::to_string(c.height) + " W " +
                 std::to_string(c.width) + " k " + std::to_string(c.k));
    const KernelCase kernel_case = Conv(DepthwiseSpec({1, c.channels, c.height, c.width}, c.k, c.stride, c.dilation));
    const KernelPlan plan = ConvPlanOf(kernel_case);
    const int64_t out_height = (c.height - 1) / c.stride + 1;
    const int64_t pixels = std::stoll(PlanDefine(plan, "OUT_PIXELS"));
    const int64_t rows = std::stoll(PlanDefine(plan, "OUT_ROWS"));
    EXPECT_EQ(rows, OutputRowsPerInvocation(out_height, pixels, kDepthwiseTargetBlock));
    EXPECT_GT(rows, c.width == 14 ? 1 : 2);
    EXPECT_EQ(PlanDefine(plan, "FOR_IN_ROWS(F)"),
              IndexList((rows - 1) * c.stride + (c.k - 1) * c.dilation + 1));
    ExpectMatchesReference(kernel_case);
  }
}

// Short loops are spelled out: dense convs that keep the tap loop (under
// kMinSlicesToUnrollTaps input slices) with at most kMaxSpelledTaps taps
// spell every tap and slice (FOR_TAPS, FOR_IN_SLICES), pointwise convs
// over at most kMaxSpelledInputSlices slices spell the slices; the rest
// keep their loops. Stems with pads, a stride, a dilation, stacked rows and
// two images, and pointwise convs on both sides of the limit, match the CPU
// reference.
TEST(ConvTest, ShortLoopsAreSpelledOut) {
  struct Case {
    Shape x;
    int64_t out_channels;
    std::vector<int64_t> kernel, strides, dilations, pads;
    bool taps_spelled, slices_spelled;
  };
  const std::vector<Case> cases = {
      {{1, 3, 23, 37}, 32, {3, 3}, {2, 2}, {1, 1}, {1, 1, 1, 1}, true, true},     // a 3-channel stem
      {{2, 8, 9, 7}, 12, {3, 3}, {1, 1}, {2, 2}, {2, 2, 2, 2}, true, true},      // 2 slices, dilated, narrow
      {{1, 3, 12, 15}, 8, {5, 5}, {2, 2}, {1, 1}, {2, 2, 2, 2}, false, false},   // 25 taps keep the loop
      {{1, 24, 5, 21}, 20, {1, 1}, {1, 1}, {1, 1}, {0, 0, 0, 0}, false, true},   // 6 slices: spelled
      {{1, 28, 5, 21}, 20, {1, 1}, {1, 1}, {1, 1}, {0, 0, 0, 0}, false, false},  // 7 keep the loop
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(ShapeToString(c.x) + " kernel " + std::to_string(c.kernel[0]) + "x" + std::to_string(c.kernel[1]));
    const KernelCase kernel_case = Conv(WindowSpec(c.x, c.out_channels, c.kernel, c.strides, c.dilations, c.pads));
    const KernelPlan plan = ConvPlanOf(kernel_case);
    const int64_t in_slices = (c.x[1] + 3) / 4;
    EXPECT_EQ(PlanDefine(plan, "FOR_TAPS(F)"), c.taps_spelled ? IndexList(c.kernel[0] * c.kernel[1]) : "");
    EXPECT_EQ(PlanDefine(plan, "FOR_IN_SLICES(F)"), c.slices_spelled ? IndexList(in_slices) : "");
    ExpectMatchesReference(kernel_case);
  }
}

// Grouped convs whose groups are at most kMaxSpelledInputSlices whole
// slices spell the group's slices out inside the kernel-row loop (RegNet's
// groups of 8 and 16 channels) and match the CPU reference with a stride,
// two images, several-row blocks and a dilation; dense convs, groups of
// more slices and groups straddling slices keep the slice loop (computed
// by the tests above).
TEST(ConvTest, GroupedSlicesAreSpelledOut) {
  struct Case {
    Shape x;
    int64_t out_channels, group, stride, dilation;
    std::string spelled;
  };
  const std::vector<Case> cases = {
      {{1, 48, 6, 11}, 48, 6, 1, 1, IndexList(2)},  // RegNet-Y's 8-channel groups
      {{2, 32, 7, 9}, 32, 2, 2, 1, IndexList(4)},   // 16-channel groups, stride 2, two images
      {{1, 48, 5, 9}, 24, 2, 1, 2, IndexList(6)},   // 24-channel groups (6 slices), dilated
      {{1, 24, 5, 9}, 48, 1, 1, 1, ""},             // dense
      {{1, 56, 5, 9}, 56, 2, 1, 1, ""},             // 28-channel groups: 7 slices
      {{1, 36, 5, 9}, 36, 6, 1, 1, ""},             // 6-channel groups straddle slices
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(ShapeToString(c.x) + " group " + std::to_string(c.group));
    ConvSpec spec;
    spec.x = c.x;
    spec.out_channels = c.out_channels;
    spec.group = c.group;
    spec.strides = {c.stride, c.stride};
    spec.dilations = {c.dilation, c.dilation};
    spec.pads = {c.dilation, c.dilation, c.dilation, c.dilation};
    const KernelCase kernel_case = Conv(spec);
    EXPECT_EQ(PlanDefine(ConvPlanOf(kernel_case), "FOR_IN_SLICES(F)"), c.spelled);
    if (!c.spelled.empty()) ExpectMatchesReference(kernel_case, SweepVariants());
  }
}

}  // namespace
}  // namespace glpool::testing
