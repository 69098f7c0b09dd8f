// Conv and ConvTranspose with 3-D windows: BuildConv and BuildConvTranspose
// hand them to conv_nd, which unravels PHWC4's folded depth itself.
#include <gtest/gtest.h>

#include "gpu_backend/kernels/kernel_ops.h"
#include "tests/kernels/conv_cases.h"
#include "tests/kernels/kernel_test_util.h"

namespace glpool::testing {
namespace {

ConvSpec Conv3d(Shape x, int64_t out_channels, std::vector<int64_t> kernel) {
  ConvSpec spec;
  spec.x = std::move(x);
  spec.out_channels = out_channels;
  spec.kernel = std::move(kernel);
  spec.strides = {1, 1, 1};
  spec.dilations = {1, 1, 1};
  spec.pads = {1, 1, 1, 1, 1, 1};
  return spec;
}

TransposeSpec ConvTranspose3d(Shape x, int64_t out_per_group) {
  TransposeSpec spec;
  spec.x = std::move(x);
  spec.out_per_group = out_per_group;
  spec.kernel = {3, 3, 3};
  spec.strides = {2, 2, 2};
  spec.dilations = {1, 1, 1};
  spec.pads = {1, 1, 1, 1, 1, 1};
  spec.output_padding = {0, 0, 0};
  return spec;
}

TEST(ConvNdTest, Conv3dOddChannels) {
  ExpectMatchesReference(Conv(Conv3d({1, 3, 5, 6, 7}, 5, {3, 3, 3})));
}

TEST(ConvNdTest, Conv3dStridesDilationsPadsBatch) {
  ConvSpec asymmetric = Conv3d({2, 5, 7, 6, 9}, 13, {2, 3, 3});
  asymmetric.strides = {2, 1, 2};
  asymmetric.dilations = {1, 2, 1};
  asymmetric.pads = {0, 1, 2, 1, 0, 1};
  ExpectMatchesReference(Conv(asymmetric), SweepVariants());

  ConvSpec pointwise = Conv3d({1, 13, 3, 5, 7}, 1, {1, 1, 1});
  pointwise.pads = {0, 0, 0, 0, 0, 0};
  pointwise.bias = false;
  ExpectMatchesReference(Conv(pointwise), SweepVariants());

  ConvSpec single = Conv3d({1, 1, 6, 5, 13}, 3, {3, 1, 2});
  single.strides = {1, 2, 1};
  single.pads = {1, 0, 0, 1, 0, 1};
  ExpectMatchesReference(Conv(single), SweepVariants());
}

TEST(ConvNdTest, Conv3dAutoPad) {
  for (const char* mode : {"SAME_UPPER", "SAME_LOWER", "VALID"}) {
    SCOPED_TRACE(mode);
    ConvSpec spec = Conv3d({1, 3, 5, 7, 6}, 5, {2, 3, 4});
    spec.strides = {2, 2, 1};
    spec.auto_pad = mode;
    ExpectMatchesReference(Conv(spec), SweepVariants());
  }
}

TEST(ConvNdTest, Conv3dGrouped) {
  struct Groups {
    int64_t in, out, group;
  };
  // Groups straddling slices, depthwise, slice-aligned.
  for (const Groups& g : {Groups{6, 9, 3}, Groups{5, 5, 5}, Groups{8, 8, 2}}) {
    SCOPED_TRACE("in " + std::to_string(g.in) + " out " + std::to_string(g.out) + " group " + std::to_string(g.group));
    ConvSpec spec = Conv3d({1, g.in, 4, 5, 7}, g.out, {3, 3, 3});
    spec.group = g.group;
    spec.strides = {1, 2, 1};
    ExpectMatchesReference(Conv(spec), SweepVariants());
  }
}

TEST(ConvNdTest, Conv3dRuntimeWeightsAndFusedActivations) {
  // W and B as graph inputs (ONNX node tests): bound the same way, in every
  // storage kind.
  ConvSpec spec = Conv3d({1, 5, 3, 4, 5}, 6, {3, 2, 3});
  spec.runtime_weights = true;
  KernelCase relu = Conv(spec);
  relu.node.attributes["fused_activation"] = std::string("Relu");
  ExpectMatchesReference(relu);

  spec.runtime_weights = false;
  KernelCase clip = Conv(spec);
  clip.node.attributes["fused_activation"] = std::string("Clip");
  clip.node.attributes["fused_activation_params"] = std::vector<float>{-0.25f, 0.5f};
  ExpectMatchesReference(clip, SweepVariants());
}

TEST(ConvNdTest, ConvTranspose3dOutputPaddingDilation) {
  TransposeSpec spec = ConvTranspose3d({1, 5, 3, 4, 5}, 3);
  spec.dilations = {1, 2, 1};
  spec.output_padding = {1, 0, 1};
  spec.pads = {1, 0, 1, 0, 2, 1};
  ExpectMatchesReference(ConvTranspose(spec));
}

TEST(ConvNdTest, ConvTranspose3dGroupedRuntimeWeights) {
  TransposeSpec spec = ConvTranspose3d({2, 6, 3, 2, 4}, 3);  // groups straddle slices
  spec.group = 2;
  spec.kernel = {2, 3, 3};
  spec.strides = {1, 2, 3};
  spec.bias = false;
  spec.runtime_weights = true;
  ExpectMatchesReference(ConvTranspose(spec), SweepVariants());
}

TEST(ConvNdTest, ConvTranspose3dOutputShapeAndAutoPad) {
  TransposeSpec spec = ConvTranspose3d({1, 3, 2, 3, 4}, 2);
  spec.pads = {0, 0, 0, 0, 0, 0};
  KernelCase c = ConvTranspose(spec);
  c.node.attributes.erase("pads");
  c.node.attributes["output_shape"] = std::vector<int64_t>{4, 7, 8};
  c.outputs["y"] = {1, 2, 4, 7, 8};
  ExpectMatchesReference(c, SweepVariants());
  c.node.attributes.erase("output_shape");
  c.outputs["y"] = {1, 2, 4, 6, 8};
  for (const char* mode : {"SAME_UPPER", "SAME_LOWER"}) {
    SCOPED_TRACE(mode);
    c.node.attributes["auto_pad"] = std::string(mode);
    ExpectMatchesReference(c, SweepVariants());
  }
}

TEST(ConvNdTest, ThreeDimensionalWindowsGoToConvNd) {
  const Graph conv = GraphOf(Conv(Conv3d({1, 3, 4, 5, 6}, 4, {1, 1, 1})));
  auto conv_plan = BuildConv(conv, conv.nodes[0], KernelLimits{});
  ASSERT_TRUE(conv_plan.ok()) << conv_plan.status().ToString();
  EXPECT_EQ(conv_plan->shader, "conv_nd");
  EXPECT_EQ(conv_plan->inputs, (std::vector<std::string>{"x", "w", "b"}));

  const Graph deconv = GraphOf(ConvTranspose(ConvTranspose3d({1, 3, 2, 3, 4}, 2)));
  auto deconv_plan = BuildConvTranspose(deconv, deconv.nodes[0], KernelLimits{});
  ASSERT_TRUE(deconv_plan.ok()) << deconv_plan.status().ToString();
  EXPECT_EQ(deconv_plan->shader, "conv_nd");
}

TEST(ConvNdTest, MismatchedGroupNamesTheNodeOnce) {
  ConvSpec spec = Conv3d({1, 6, 3, 4, 5}, 4, {3, 3, 3});
  KernelCase c = Conv(spec);
  c.node.attributes["group"] = int64_t{4};  // 6 input channels do not split in 4
  const Status status = CreateOnGpu(c);
  EXPECT_EQ(status.code(), StatusCode::kInvalidModel) << status.ToString();
  // The executor names the node; the descriptor only says what is wrong.
  EXPECT_EQ(status.message().rfind("node conv (Conv): group 4 does not fit", 0), 0u) << status.ToString();
  EXPECT_EQ(status.message().find("node conv", 1), std::string::npos) << status.ToString();
}

TEST(ConvNdTest, WorkGroupsStayWithinLimits) {
  ExpectConvWorkGroupsWithinLimits(Conv(Conv3d({1, 5, 3, 7, 13}, 5, {3, 3, 3})));
}

}  // namespace
}  // namespace glpool::testing
