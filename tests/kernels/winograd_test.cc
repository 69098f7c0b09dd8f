// Convs run as Winograd's F(4x4, 3x3) (graph/winograd.h): the three tasks
// the GPU session makes of them against the CPU reference's direct Conv,
// and the transforms alone against their own reference.
#include <gtest/gtest.h>

#include "gpu_backend/graph/winograd.h"
#include "tests/kernels/conv_cases.h"
#include "tests/kernels/kernel_test_util.h"

namespace glpool::testing {
namespace {

// The shaders of the case's tasks, in order.
std::vector<std::string> Shaders(const KernelCase& c) {
  StatusOr<std::vector<TaskInfo>> tasks = TasksOnGpu(c, ExecutorOptions{});
  EXPECT_TRUE(tasks.ok()) << tasks.status().ToString();
  std::vector<std::string> shaders;
  if (tasks.ok()) {
    for (const TaskInfo& task : *tasks) shaders.push_back(task.shader);
  }
  return shaders;
}

ConvSpec Winograd3x3(const Shape& x, int64_t out_channels, const std::vector<int64_t>& pads) {
  ConvSpec spec;
  spec.x = x;
  spec.out_channels = out_channels;
  spec.pads = pads;
  return spec;
}

const std::vector<std::string> kWinogradTasks = {"winograd_input", "conv", "winograd_output"};

// Channels that are not whole slices, sizes that leave partial tiles,
// batch 2, pads of 0 to 2 on each side (the output 2 smaller than the input
// up to 2 larger), with and without a bias.
TEST(WinogradTest, MatchesTheDirectConv) {
  struct Case {
    Shape x;
    int64_t out_channels;
    std::vector<int64_t> pads;
    bool bias;
  };
  for (const Case& k : {Case{{1, 33, 13, 11}, 37, {1, 1, 1, 1}, true}, Case{{2, 32, 10, 17}, 35, {0, 0, 0, 0}, false},
                        Case{{1, 34, 8, 10}, 32, {2, 0, 1, 2}, true}}) {
    SCOPED_TRACE(ShapeToString(k.x) + " -> " + std::to_string(k.out_channels));
    ConvSpec spec = Winograd3x3(k.x, k.out_channels, k.pads);
    spec.bias = k.bias;
    const KernelCase c = Conv(spec);
    EXPECT_EQ(Shaders(c), kWinogradTasks);
    ExpectMatchesReference(c);
  }
}

// The fused residual and activation move to the output transform.
TEST(WinogradTest, ResidualAndActivation) {
  KernelCase c = Conv(Winograd3x3({2, 32, 10, 9}, 33, {1, 1, 1, 1}));
  c.node.inputs.resize(3);
  c.node.inputs.push_back("");
  c.node.inputs.push_back("skip");
  c.inputs["skip"] = RandomTensor({2, 33, 10, 9}, 10);
  c.node.attributes["fused_activation"] = std::string("Relu");
  EXPECT_EQ(Shaders(c), kWinogradTasks);
  ExpectMatchesReference(c);
}

// Convs it would not pay for, or cannot run, keep the direct kernel:
// few input channels, few output channels (below
// kMinWinogradOutputChannels), small outputs, strides, dilations, groups.
TEST(WinogradTest, OtherConvsStayDirect) {
  ConvSpec few = Winograd3x3({1, 8, 16, 16}, 64, {1, 1, 1, 1});
  ConvSpec few_outputs = Winograd3x3({1, 96, 16, 16}, 24, {1, 1, 1, 1});
  ConvSpec small = Winograd3x3({1, 64, 6, 6}, 64, {1, 1, 1, 1});
  ConvSpec strided = Winograd3x3({1, 64, 16, 16}, 64, {1, 1, 1, 1});
  strided.strides = {2, 2};
  ConvSpec dilated = Winograd3x3({1, 64, 16, 16}, 64, {2, 2, 2, 2});
  dilated.dilations = {2, 2};
  ConvSpec grouped = Winograd3x3({1, 64, 16, 16}, 64, {1, 1, 1, 1});
  grouped.group = 2;
  for (const ConvSpec& spec : {few, few_outputs, small, strided, dilated, grouped}) {
    EXPECT_EQ(Shaders(Conv(spec)), std::vector<std::string>{"conv"});
  }
}

// The weight transform: G g G^T of a kernel that is 1 at its centre is
// G's middle column times its transpose.
TEST(WinogradTest, WeightTransform) {
  std::vector<float> centre(9, 0.0f);
  centre[4] = 1.0f;
  const std::vector<float> u = WinogradWeights(centre, 1, 1);
  ASSERT_EQ(u.size(), 36u * 4 * 4);  // [36 * Kp, Cp] with Kp = Cp = 4
  for (int i = 0; i < 6; ++i) {
    for (int j = 0; j < 6; ++j) {
      const int e = i * 6 + j;
      EXPECT_FLOAT_EQ(u[static_cast<size_t>(e * 4 * 4)], kWinogradG[i][1] * kWinogradG[j][1]) << e;
      EXPECT_EQ(u[static_cast<size_t>(e * 4 * 4 + 1)], 0.0f);  // padding input channel
    }
  }
}

// The transforms alone, as the rewrite builds them, against their CPU
// reference (odd channels, partial tiles, pads on one side).
TEST(WinogradTest, TransformsMatchTheirReference) {
  KernelCase input;
  input.node.name = "input_transform";
  input.node.op_type = "WinogradInputTransform";
  input.node.inputs = {"x"};
  input.node.outputs = {"v"};
  input.node.attributes["pads"] = std::vector<int64_t>{2, 0};
  input.node.attributes["tiles"] = std::vector<int64_t>{3, 2};
  input.inputs["x"] = RandomTensor({2, 5, 9, 7}, 3);
  input.outputs["v"] = {2, 36 * 8, 3, 2};
  ExpectMatchesReference(input);

  KernelCase output;
  output.node.name = "output_transform";
  output.node.op_type = "WinogradOutputTransform";
  output.node.inputs = {"m", "b", "skip"};
  output.node.outputs = {"y"};
  output.node.attributes["output_shape"] = std::vector<int64_t>{6, 9, 7};
  output.node.attributes["fused_activation"] = std::string("Relu");
  output.inputs["m"] = RandomTensor({2, 36 * 8, 3, 2}, 4);
  output.constants["b"] = RandomTensor({6}, 5);
  output.inputs["skip"] = RandomTensor({2, 6, 9, 7}, 6);
  output.outputs["y"] = {2, 6, 9, 7};
  ExpectMatchesReference(output);
}

}  // namespace
}  // namespace glpool::testing
