#include <gtest/gtest.h>

#include <cstdlib>

#include "gpu_backend/runtime/executor.h"

#include "gpu_backend/kernels/conv_common.h"
#include "gpu_backend/kernels/kernel_ops.h"
#include "tests/kernels/conv_cases.h"
#include "tests/kernels/kernel_test_util.h"

namespace glpool::testing {
namespace {

// Each case below compiles its own shader variants (cold, about a second on
// llvmpipe), so every case covers several features at once.

TEST(ConvTest, PointwiseOddChannels) {
  struct Channels {
    int64_t in, out, width;
  };
  // Widths 13 and 37 give blocks of 4 and 8 columns with a partial last one.
  for (const Channels& ch : {Channels{1, 5, 13}, Channels{3, 24, 37}, Channels{13, 13, 13}, Channels{5, 1, 7}}) {
    SCOPED_TRACE("C_in " + std::to_string(ch.in) + " C_out " + std::to_string(ch.out));
    ConvSpec spec;
    spec.x = {1, ch.in, 7, ch.width};
    spec.out_channels = ch.out;
    spec.kernel = {1, 1};
    spec.bias = ch.in != 13;
    ExpectMatchesReference(Conv(spec));
  }
}

// Weights past a uniform block's 64 KB (llvmpipe's limit; 16 KB is GLES's
// minimum) live in a texture buffer read with texelFetch where the context
// has them; GLPOOL_WEIGHTS_IN_2D_TEXTURES=1 puts them in a 2D texture (more
// than 4096 vec4s, so the index wraps onto a second texel row) and
// GLPOOL_WEIGHTS_IN_BUFFERS=1 in a storage buffer. All must give the same
// bits.
TEST(ConvTest, WeightsTooLargeForAUniformBlockComeFromATexture) {
  ConvSpec spec;
  spec.x = {1, 144, 5, 9};
  spec.out_channels = 136;  // 36 x 34 slices x 4 vec4s = 4896 vec4s of mat4 weights
  spec.kernel = {1, 1};
  const KernelCase c = Conv(spec);
  ExpectMatchesReference(c);
  ExecutorOptions options;
  auto run = [&](const char* variable) -> std::vector<float> {
    if (variable != nullptr) setenv(variable, "1", 1);
    StatusOr<std::unique_ptr<Executor>> executor = Executor::Create(GraphOf(c), options);
    if (variable != nullptr) unsetenv(variable);
    EXPECT_TRUE(executor.ok()) << executor.status().ToString();
    if (!executor.ok()) return {};
    auto out = (*executor)->Run(c.inputs);
    EXPECT_TRUE(out.ok()) << out.status().ToString();
    return out.ok() ? out->begin()->second.ToFloats() : std::vector<float>{};
  };
  ASSERT_TRUE(CreateOnGpu(c, options).ok());
  const std::vector<float> from_default = run(nullptr);
  const std::vector<float> from_2d_texture = run("GLPOOL_WEIGHTS_IN_2D_TEXTURES");
  const std::vector<float> from_buffer = run("GLPOOL_WEIGHTS_IN_BUFFERS");
  ASSERT_FALSE(from_default.empty());
  EXPECT_EQ(from_default, from_2d_texture);
  EXPECT_EQ(from_default, from_buffer);
}

// Weights that fit a uniform block are read from one on GPUs and from a
// texture buffer on llvmpipe (executor.cc says why);
// GLPOOL_WEIGHTS_IN_UNIFORM_BLOCKS=1 or 0 forces either, so both readings
// run here whatever the driver: the same bits, and each run's shader
// declares the home asked for.
TEST(ConvTest, SmallWeightsGiveTheSameBitsFromAUniformBlockOrATextureBuffer) {
  ConvSpec spec;
  spec.x = {1, 11, 6, 19};
  spec.out_channels = 14;  // 3 x 4 slices of mat4 weights: far below any uniform block's limit
  spec.kernel = {3, 3};
  spec.pads = {1, 1, 1, 1};
  const KernelCase c = Conv(spec);
  ExpectMatchesReference(c);
  ASSERT_TRUE(CreateOnGpu(c, ExecutorOptions{}).ok());
  struct Reading {
    std::vector<float> values;
    std::string shaders;  // the assembled kernels, as GLPOOL_DUMP_SHADERS prints them
  };
  auto run = [&](const char* in_uniform_blocks) -> Reading {
    setenv("GLPOOL_WEIGHTS_IN_UNIFORM_BLOCKS", in_uniform_blocks, 1);
    setenv("GLPOOL_DUMP_SHADERS", "1", 1);
    ::testing::internal::CaptureStderr();
    StatusOr<std::unique_ptr<Executor>> executor = Executor::Create(GraphOf(c), ExecutorOptions{});
    Reading reading;
    reading.shaders = ::testing::internal::GetCapturedStderr();
    unsetenv("GLPOOL_DUMP_SHADERS");
    unsetenv("GLPOOL_WEIGHTS_IN_UNIFORM_BLOCKS");
    EXPECT_TRUE(executor.ok()) << executor.status().ToString();
    if (!executor.ok()) return reading;
    auto out = (*executor)->Run(c.inputs);
    EXPECT_TRUE(out.ok()) << out.status().ToString();
    if (out.ok()) reading.values = out->begin()->second.ToFloats();
    return reading;
  };
  const Reading from_uniform_block = run("1");
  const Reading from_texture_buffer = run("0");
  ASSERT_FALSE(from_uniform_block.values.empty());
  EXPECT_EQ(from_uniform_block.values, from_texture_buffer.values);
  EXPECT_NE(from_uniform_block.shaders.find("uniform weights_block"), std::string::npos)
      << from_uniform_block.shaders;
  EXPECT_NE(from_texture_buffer.shaders.find("samplerBuffer weights_texture"), std::string::npos)
      << from_texture_buffer.shaders;
}

// Block widths whose column blocks fill whole batches of 8 SIMD lanes on
// llvmpipe (conv_common.h), not powers of two; widths no block fills keep
// the given one. Then convs at those widths, 1x1 and 3x3 (the shift of
// loaded columns between taps, 7-, 5- and 10-column blocks), match the
// CPU reference.
TEST(ConvTest, BlocksFillWholeLaneBatches) {
  EXPECT_EQ(PixelsFillingLaneBatches(80, 16), 10);
  EXPECT_EQ(PixelsFillingLaneBatches(112, 16), 14);
  EXPECT_EQ(PixelsFillingLaneBatches(56, 8), 7);
  EXPECT_EQ(PixelsFillingLaneBatches(40, 8), 5);
  EXPECT_EQ(PixelsFillingLaneBatches(128, 16), 16);  // 8 blocks of 16 already fill the lanes
  EXPECT_EQ(PixelsFillingLaneBatches(28, 4), 4);     // nothing reaches 95%: kept
  EXPECT_EQ(PixelsFillingLaneBatches(7, 1), 1);
  for (int64_t width : {56, 40, 80}) {
    for (int64_t k : {1, 3}) ExpectMatchesReference(Conv(SameSizeSpec({1, 6, 3, width}, 9, k)));
  }
}

// Output slices per invocation: 4 unless the last block of 4 would leave
// more than a sixth of its slots idle, then a divisor; a partial last block
// (38 channels: 10 slices, the last 2 channels short) matches the CPU
// reference on the pointwise and the general path.
TEST(ConvTest, OutputSliceBlocks) {
  EXPECT_EQ(OutputSlicesPerInvocation(3), 3);
  EXPECT_EQ(OutputSlicesPerInvocation(8), 4);
  EXPECT_EQ(OutputSlicesPerInvocation(250), 4);  // 1000 channels: 2 of 252 slots idle
  EXPECT_EQ(OutputSlicesPerInvocation(10), 4);
  EXPECT_EQ(OutputSlicesPerInvocation(6), 3);  // 4 would idle 2 of 8
  EXPECT_EQ(OutputSlicesPerInvocation(9), 3);
  EXPECT_EQ(OutputSlicesPerInvocation(5), 4);  // no divisor: a partial block
  for (int64_t k : {1, 3}) {
    const KernelCase kernel_case = Conv(SameSizeSpec({1, 7, 5, 9}, 38, k));
    EXPECT_EQ(PlanDefine(ConvPlanOf(kernel_case), "OUT_SLICES"), "4");
    ExpectMatchesReference(kernel_case);
  }
}

// Narrow blocks grow rows, powers of two, while the block stays within
// kTargetBlock pixels and the rows do not pass the output's height rounded
// up to a power of two.
TEST(ConvTest, BlockRowsGrowToTargetBlock) {
  EXPECT_EQ(OutputRowsPerInvocation(56, 7), 2);   // 14 pixels; 28 would pass 16
  EXPECT_EQ(OutputRowsPerInvocation(14, 2), 8);   // 16 pixels
  EXPECT_EQ(OutputRowsPerInvocation(7, 1), 8);    // 8 rows reach the height
  EXPECT_EQ(OutputRowsPerInvocation(3, 4), 4);
  EXPECT_EQ(OutputRowsPerInvocation(40, 16), 1);  // already the target
  for (int64_t height : {1, 5, 13, 56}) {
    for (int64_t pixels : {1, 2, 7, 16}) {
      const int64_t rows = OutputRowsPerInvocation(height, pixels);
      EXPECT_LE(pixels * rows, std::max(kTargetBlock, pixels));
      EXPECT_LT(rows / 2, height);
    }
  }
}

TEST(ConvTest, GeneralStridesPadsDilation) {
  struct Geometry {
    std::vector<int64_t> kernel, strides, dilations, pads;
    int64_t in, out, width;
  };
  const Geometry geometries[] = {
      {{3, 3}, {1, 1}, {1, 1}, {1, 1, 1, 1}, 13, 20, 13},  // 20: 5 slices, a partial block of 4
      {{3, 3}, {2, 2}, {1, 2}, {1, 2, 1, 2}, 3, 5, 37},    // strided and dilated: reused columns
      {{3, 3}, {1, 1}, {2, 2}, {2, 2, 2, 2}, 5, 13, 37},   // dilated (u2netp), 8-column blocks
      {{3, 5}, {2, 1}, {1, 3}, {0, 1, 2, 3}, 3, 5, 13},    // asymmetric everything
      {{1, 1}, {2, 2}, {1, 1}, {0, 0, 0, 0}, 13, 3, 13},   // 1x1 strided: not pointwise
  };
  for (const Geometry& g : geometries) {
    SCOPED_TRACE("kernel " + std::to_string(g.kernel[0]) + "x" + std::to_string(g.kernel[1]) + " stride " +
                 std::to_string(g.strides[0]) + " dilation " + std::to_string(g.dilations[1]));
    ConvSpec spec;
    spec.x = {1, g.in, 7, g.width};
    spec.out_channels = g.out;
    spec.kernel = g.kernel;
    spec.strides = g.strides;
    spec.dilations = g.dilations;
    spec.pads = g.pads;
    ExpectMatchesReference(Conv(spec));
  }
}

TEST(ConvTest, OutputSliceBlocksAndBatch) {
  for (int64_t out : {12, 28}) {  // blocks of 3 slices, and of 4 with padding
    ConvSpec spec;
    spec.x = {2, 5, 6, 7};
    spec.out_channels = out;
    spec.pads = {1, 1, 1, 1};
    spec.bias = out != 12;
    ExpectMatchesReference(Conv(spec));
  }
}

// Outputs narrower than a group's row of lanes run their slice blocks along
// the dispatch's x (LANES_ALONG_SLICES): squeeze-and-excitation convs at
// 1x1 (more slice blocks than one group holds, batch 2), a 3x3 on a 2-wide
// input, and a depthwise conv at 1x3.
TEST(ConvTest, NarrowOutputsRunSlicesAlongLanes) {
  ConvSpec squeeze;
  squeeze.x = {2, 37, 1, 1};
  squeeze.out_channels = 1030;
  squeeze.kernel = {1, 1};
  ExpectMatchesReference(Conv(squeeze));
  ConvSpec narrow;
  narrow.x = {1, 9, 3, 2};
  narrow.out_channels = 70;
  narrow.pads = {1, 1, 1, 1};
  ExpectMatchesReference(Conv(narrow));
  ConvSpec depthwise;
  depthwise.x = {1, 44, 1, 3};
  depthwise.out_channels = 44;
  depthwise.group = 44;
  depthwise.pads = {1, 1, 1, 1};
  ExpectMatchesReference(Conv(depthwise));
}

// Narrow outputs stack rows in the block (OUT_ROWS): heights that leave a
// partial last block, batches (a block never straddles two images), and
// rows whose taps fall in the padding, with strides and dilations.
TEST(ConvTest, NarrowOutputsStackRows) {
  ConvSpec pointwise;
  pointwise.x = {3, 6, 7, 7};
  pointwise.out_channels = 9;
  pointwise.kernel = {1, 1};
  ExpectMatchesReference(Conv(pointwise));
  ConvSpec strided;
  strided.x = {2, 5, 11, 9};
  strided.out_channels = 8;
  strided.strides = {2, 1};
  strided.dilations = {2, 2};
  strided.pads = {2, 1, 1, 2};
  ExpectMatchesReference(Conv(strided));
  ConvSpec tall;
  tall.x = {1, 4, 13, 3};
  tall.out_channels = 4;
  tall.kernel = {5, 3};
  tall.pads = {2, 1, 2, 1};
  ExpectMatchesReference(Conv(tall));
}

// Outputs 64 and more wide take 16 columns per invocation: a width that is
// not a multiple of 16 leaves a partial block at the right edge.
TEST(ConvTest, WideOutputsSixteenColumnsPerInvocation) {
  for (int64_t width : {64, 77}) {
    ConvSpec spec;
    spec.x = {1, 5, 3, width};
    spec.out_channels = 6;
    spec.pads = {1, 1, 1, 1};
    ExpectMatchesReference(Conv(spec));
  }
  ConvSpec pointwise;
  pointwise.x = {1, 7, 2, 70};
  pointwise.out_channels = 13;
  pointwise.kernel = {1, 1};
  ExpectMatchesReference(Conv(pointwise));
}

TEST(ConvTest, AutoPad) {
  for (const char* mode : {"SAME_UPPER", "SAME_LOWER", "VALID"}) {
    SCOPED_TRACE(mode);
    ConvSpec spec;
    spec.x = {1, 3, 7, 13};
    spec.out_channels = 5;
    spec.kernel = {4, 3};
    spec.strides = {2, 2};
    spec.auto_pad = mode;
    ExpectMatchesReference(Conv(spec));
  }
}

TEST(ConvTest, Depthwise) {
  struct Depthwise {
    int64_t channels, k, stride, width;
  };
  for (const Depthwise& d : {Depthwise{1, 3, 1, 13}, Depthwise{5, 3, 2, 13}, Depthwise{13, 5, 2, 13},
                             Depthwise{13, 5, 1, 37}}) {
    SCOPED_TRACE("C " + std::to_string(d.channels) + " k " + std::to_string(d.k) + " s " + std::to_string(d.stride));
    ConvSpec spec;
    spec.x = {1, d.channels, 7, d.width};
    spec.out_channels = d.channels;
    spec.group = d.channels;
    spec.kernel = {d.k, d.k};
    spec.strides = {d.stride, d.stride};
    spec.pads = {d.k / 2, d.k / 2, d.k / 2, d.k / 2};
    ExpectMatchesReference(Conv(spec));
  }
}

// Depthwise blocks of several output rows load each input row once for all
// of them (shaders/conv.comp): rows that share input rows
// through strides, dilations, asymmetric pads and kernels, an odd height
// (the last block's second row lies past the edge) and two images.
TEST(ConvTest, DepthwiseRowBlocks) {
  struct Case {
    std::vector<int64_t> kernel, strides, dilations, pads;
    Shape x;
  };
  const std::vector<Case> cases = {
      {{5, 5}, {2, 1}, {1, 1}, {2, 2, 2, 2}, {1, 6, 12, 21}},   // PP-OCRv4 rec's shape
      {{5, 5}, {1, 1}, {2, 2}, {4, 4, 4, 4}, {1, 5, 9, 11}},    // dilated
      {{5, 3}, {1, 2}, {1, 1}, {1, 1, 3, 0}, {2, 7, 7, 10}},    // asymmetric, two images
      {{7, 7}, {1, 1}, {1, 1}, {3, 3, 3, 3}, {1, 4, 3, 9}},     // taller than the image
  };
  for (const Case& c : cases) {
    SCOPED_TRACE("kernel " + std::to_string(c.kernel[0]) + "x" + std::to_string(c.kernel[1]) + " x " +
                 ShapeToString(c.x));
    ConvSpec spec;
    spec.x = c.x;
    spec.out_channels = c.x[1];
    spec.group = c.x[1];
    spec.kernel = c.kernel;
    spec.strides = c.strides;
    spec.dilations = c.dilations;
    spec.pads = c.pads;
    ExpectMatchesReference(Conv(spec));
  }
}

// Depthwise outputs at most kWholeRowDepthwiseWidth wide with at least 8
// slices take whole rows per invocation, lanes along the slices: the plan
// says so, and widths 7, 14 (stride 2), 32 and 33 (the first past it), 5x5
// with several-row blocks, dilation, a padded last slice and two images match
// the CPU reference.
TEST(ConvTest, DepthwiseWholeRows) {
  struct Case {
    int64_t channels, width, k, stride, dilation, batch;
  };
  for (const Case& c : {Case{35, 7, 5, 1, 1, 2}, Case{32, 28, 3, 2, 1, 1}, Case{33, 32, 3, 1, 2, 1},
                        Case{36, 33, 3, 1, 1, 1}}) {
    SCOPED_TRACE("C " + std::to_string(c.channels) + " W " + std::to_string(c.width) + " k " + std::to_string(c.k));
    const KernelCase kernel_case = Conv(DepthwiseSpec({c.batch, c.channels, 6, c.width}, c.k, c.stride, c.dilation));
    const KernelPlan plan = ConvPlanOf(kernel_case);
    const int64_t out_width = (c.width - 1) / c.stride + 1;
    const bool whole_rows = out_width <= kWholeRowDepthwiseWidth;
    EXPECT_EQ(PlanDefine(plan, "OUT_PIXELS"), whole_rows ? std::to_string(out_width) : "8");
    EXPECT_EQ(PlanDefine(plan, "LANES_ALONG_SLICES"), whole_rows ? "1" : "0");
    ExpectMatchesReference(kernel_case);
  }
}

// Depthwise convs too wide for whole rows take a block width whose blocks
// fill whole batches of 8 lanes (80 columns: 10, not 8, which left 6 of 16
// lanes idle): the row's block count is a multiple of 8 and at least
// kMinLaneUse of the columns computed are real. Several-row blocks, a
// stride, a padded slice and two images match the CPU reference.
TEST(ConvTest, DepthwiseBlocksFillLaneBatches) {
  struct Case {
    int64_t channels, width, k, stride, batch;
  };
  for (const Case& c : {Case{12, 80, 5, 1, 1}, Case{6, 56, 3, 1, 2}, Case{9, 111, 3, 2, 1}, Case{40, 160, 3, 1, 1}}) {
    SCOPED_TRACE("C " + std::to_string(c.channels) + " W " + std::to_string(c.width) + " k " + std::to_string(c.k));
    const KernelCase kernel_case = Conv(DepthwiseSpec({c.batch, c.channels, 5, c.width}, c.k, c.stride, 1));
    const KernelPlan plan = ConvPlanOf(kernel_case);
    const int64_t out_width = (c.width - 1) / c.stride + 1;
    const int64_t pixels = std::stoll(PlanDefine(plan, "OUT_PIXELS"));
    const int64_t blocks = (out_width + pixels - 1) / pixels;
    EXPECT_EQ(blocks % 8, 0) << pixels << " columns a block";
    EXPECT_GE(static_cast<double>(out_width) / static_cast<double>(blocks * pixels), kMinLaneUse);
    ExpectMatchesReference(kernel_case);
  }
}

// Dense convs over kMinSlicesToUnrollTaps or more input slices, and grouped
// ones, spell a kernel row's taps out (UNROLL_KX); 8 input channels (2
// slices) keep the tap loop. Strides, dilations, asymmetric pads, stacked
// rows (narrow outputs), a wide output with a partial block and two images
// match the CPU reference on the unrolled path.
TEST(ConvTest, UnrolledTapsOverManyInputSlices) {
  struct Case {
    Shape x;
    int64_t out_channels;
    std::vector<int64_t> kernel, strides, dilations, pads;
  };
  const std::vector<Case> cases = {
      {{2, 13, 9, 11}, 10, {3, 3}, {2, 1}, {1, 2}, {1, 2, 0, 1}},
      {{1, 12, 5, 70}, 9, {5, 3}, {1, 1}, {1, 1}, {2, 1, 2, 1}},
      {{1, 16, 7, 7}, 20, {3, 3}, {1, 2}, {2, 1}, {2, 1, 2, 1}},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(ShapeToString(c.x));
    const KernelCase kernel_case = Conv(WindowSpec(c.x, c.out_channels, c.kernel, c.strides, c.dilations, c.pads));
    EXPECT_EQ(PlanDefine(ConvPlanOf(kernel_case), "UNROLL_KX"), "1");
    ExpectMatchesReference(kernel_case);
  }
  ConvSpec two_slices;
  two_slices.x = {1, 8, 5, 9};
  two_slices.out_channels = 4;
  EXPECT_EQ(PlanDefine(ConvPlanOf(Conv(two_slices)), "UNROLL_KX"), "");
}

TEST(ConvTest, Grouped) {
  struct Groups {
    int64_t in, out, group;
  };
  // Slice-aligned groups, groups straddling slices, a depthwise multiplier,
  // groups of several output slices (blocks of 3, 2 and 4 slices within a
  // group, the last with a partial input slice).
  for (const Groups& g : {Groups{8, 8, 2}, Groups{6, 9, 3}, Groups{3, 6, 3}, Groups{16, 48, 2}, Groups{24, 24, 3},
                          Groups{18, 64, 2}}) {
    SCOPED_TRACE("in " + std::to_string(g.in) + " out " + std::to_string(g.out) + " group " + std::to_string(g.group));
    ConvSpec spec;
    spec.x = {1, g.in, 7, 13};
    spec.out_channels = g.out;
    spec.group = g.group;
    spec.strides = {2, 1};
    spec.pads = {1, 0, 1, 2};
    ExpectMatchesReference(Conv(spec));
  }
}

TEST(ConvTest, GroupedBlocksStayWithinAGroup) {
  // Output slices of one block share their input loads, so a grouped
  // conv's block divides its groups' slices; groups that are not whole
  // slices take one slice a block.
  EXPECT_EQ(OutputSlicesPerInvocation(64, 4, 64), 4);
  EXPECT_EQ(OutputSlicesPerInvocation(12, 2, 24), 3);
  EXPECT_EQ(OutputSlicesPerInvocation(4, 2, 8), 2);
  EXPECT_EQ(OutputSlicesPerInvocation(6, 4, 6), 1);
  EXPECT_EQ(OutputSlicesPerInvocation(2, 2, 4), 1);
  EXPECT_EQ(OutputSlicesPerInvocation(250, 1, 1000), OutputSlicesPerInvocation(250));
}

TEST(ConvTest, TallAndOneDimensional) {
  ConvSpec tall;
  tall.x = {1, 5, 127, 1};
  tall.out_channels = 3;
  tall.kernel = {3, 1};
  tall.pads = {1, 0, 1, 0};
  ExpectMatchesReference(Conv(tall));

  ConvSpec line;  // rank 3: PHWC4 gives it H = 1
  line.x = {2, 3, 13};
  line.out_channels = 5;
  line.kernel = {3};
  line.strides = {2};
  line.dilations = {2};
  line.pads = {1, 2};
  ExpectMatchesReference(Conv(line));
}

TEST(ConvTest, FusedActivations) {
  ConvSpec spec;
  spec.x = {1, 5, 7, 13};
  spec.out_channels = 13;
  spec.pads = {1, 1, 1, 1};
  KernelCase relu = Conv(spec);
  relu.node.attributes["fused_activation"] = std::string("Relu");
  ExpectMatchesReference(relu);

  spec.group = 5;
  spec.out_channels = 5;
  KernelCase clip = Conv(spec);  // depthwise + ReLU6-like clip
  clip.node.attributes["fused_activation"] = std::string("Clip");
  clip.node.attributes["fused_activation_params"] = std::vector<float>{0.0f, 0.5f};
  ExpectMatchesReference(clip);

  KernelCase swish = Conv(spec);  // x * sigmoid(x), fused from that pattern
  swish.node.attributes["fused_activation"] = std::string("Swish");
  ExpectMatchesReference(swish);
}

// The channel gate FuseChannelGateIntoConv gives a Conv (graph.h): X
// scaled per (image, channel) as it is loaded, in each of the three paths
// (pointwise, depthwise, general), with and without a bias, one gate for
// the batch or one per image.
TEST(ConvTest, ChannelGate) {
  struct Case {
    int64_t out_channels, group, k;
    bool bias;
    int64_t gate_batch;
  };
  for (const Case& k : {Case{13, 1, 1, true, 1}, Case{6, 6, 3, true, 2}, Case{5, 1, 3, false, 1},
                        Case{7, 1, 1, false, 2}}) {
    SCOPED_TRACE("group " + std::to_string(k.group) + " k " + std::to_string(k.k));
    ConvSpec spec;
    spec.x = {2, 6, 7, 13};
    spec.out_channels = k.out_channels;
    spec.group = k.group;
    spec.kernel = {k.k, k.k};
    spec.pads = {k.k / 2, k.k / 2, k.k / 2, k.k / 2};
    spec.bias = k.bias;
    KernelCase c = Conv(spec);
    c.node.inputs.resize(3);
    c.node.inputs.push_back("gate");
    c.inputs["gate"] = RandomTensor({k.gate_batch, 6, 1, 1}, 9);
    ExpectMatchesReference(c);
  }
}

// The residual FuseResidualAddIntoConv gives a Conv (graph.h): Y's shape,
// added before the fused activation, in each of the three paths, alone
// (the fourth input empty) or after a channel gate.
TEST(ConvTest, Residual) {
  struct Case {
    int64_t out_channels, group, k, stride;
    bool gate;
  };
  for (const Case& k : {Case{13, 1, 1, 1, false}, Case{6, 6, 3, 1, true}, Case{5, 1, 3, 2, false},
                        Case{7, 1, 1, 1, true}, Case{6, 6, 5, 2, false}}) {
    SCOPED_TRACE("group " + std::to_string(k.group) + " k " + std::to_string(k.k) + " stride " +
                 std::to_string(k.stride));
    ConvSpec spec;
    spec.x = {2, 6, 7, 13};
    spec.out_channels = k.out_channels;
    spec.group = k.group;
    spec.kernel = {k.k, k.k};
    spec.strides = {k.stride, k.stride};
    spec.pads = {k.k / 2, k.k / 2, k.k / 2, k.k / 2};
    spec.bias = true;
    KernelCase c = Conv(spec);
    c.node.inputs.resize(3);
    c.node.inputs.push_back(k.gate ? "gate" : "");
    if (k.gate) c.inputs["gate"] = RandomTensor({1, 6, 1, 1}, 9);
    c.node.inputs.push_back("skip");
    const Shape y = {2, k.out_channels, (7 - 1) / k.stride + 1, (13 - 1) / k.stride + 1};
    c.inputs["skip"] = RandomTensor(y, 10);
    c.node.attributes["fused_activation"] = std::string("Relu");
    ExpectMatchesReference(c);
  }
}

TEST(ConvTest, WorkGroupsStayWithinLimits) {
  ConvSpec spec;
  spec.x = {1, 5, 7, 13};
  spec.out_channels = 5;
  ExpectConvWorkGroupsWithinLimits(Conv(spec));
}

}  // namespace
}  // namespace glpool::testing
