// A depthwise Conv read only by a pointwise Conv runs as one
// DepthwisePointwiseConv task (graph/depthwise_pointwise.h): the GPU
// session fuses the pair and its result matches the CPU reference of the
// two Convs; pairs the pass must not fuse keep two tasks.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "gpu_backend/cpu_reference/executor.h"
#include "gpu_backend/graph/depthwise_pointwise.h"
#include "tests/import/graph_builder.h"
#include "tests/kernels/kernel_test_util.h"

namespace glpool::testing {
namespace {

struct PairSpec {
  Shape x;               // N, C, H, W
  int64_t kernel = 3;
  int64_t stride = 1;
  int64_t dilation = 1;
  int64_t pad = 1;
  int64_t outputs = 8;   // the pointwise Conv's output channels
  std::map<std::string, AttributeValue> depthwise_extra;  // a fused activation, a multiplier's group...
  std::map<std::string, AttributeValue> pointwise_extra;
  bool residual = false;  // the pointwise Conv's fused residual (graph.h input 4)
  bool biases = true;
};

int64_t OutSize(int64_t in, const PairSpec& s) {
  return (in + 2 * s.pad - (s.kernel - 1) * s.dilation - 1) / s.stride + 1;
}

// x -> depthwise Conv d -> pointwise Conv y.
Graph PairGraph(const PairSpec& s) {
  const int64_t n = s.x[0], c = s.x[1], oh = OutSize(s.x[2], s), ow = OutSize(s.x[3], s);
  testing_util::GraphBuilder b;
  b.Input("x", s.x)
      .Constant("wd", {c, 1, s.kernel, s.kernel}, RandomTensor({c, 1, s.kernel, s.kernel}, 1).ToFloats())
      .Constant("bd", {c}, RandomTensor({c}, 2).ToFloats())
      .Constant("wp", {s.outputs, c, 1, 1}, RandomTensor({s.outputs, c, 1, 1}, 3).ToFloats())
      .Constant("bp", {s.outputs}, RandomTensor({s.outputs}, 4).ToFloats());
  std::map<std::string, AttributeValue> dw = {{"group", c},
                                              {"kernel_shape", std::vector<int64_t>{s.kernel, s.kernel}},
                                              {"strides", std::vector<int64_t>{s.stride, s.stride}},
                                              {"dilations", std::vector<int64_t>{s.dilation, s.dilation}},
                                              {"pads", std::vector<int64_t>(4, s.pad)}};
  for (const auto& [key, value] : s.depthwise_extra) dw[key] = value;
  const std::vector<std::string> dw_inputs =
      s.biases ? std::vector<std::string>{"x", "wd", "bd"} : std::vector<std::string>{"x", "wd"};
  b.Op("Conv", dw_inputs, "d", {n, c, oh, ow}, dw);
  std::vector<std::string> pw_inputs = {"d", "wp", s.biases ? "bp" : ""};
  if (s.residual) {
    b.Input("skip", {n, s.outputs, oh, ow});
    pw_inputs.push_back("");
    pw_inputs.push_back("skip");
  }
  b.Op("Conv", pw_inputs, "y", {n, s.outputs, oh, ow}, s.pointwise_extra).Output("y");
  return b.graph();
}

std::map<std::string, TensorData> PairInputs(const PairSpec& s) {
  std::map<std::string, TensorData> inputs = {{"x", RandomTensor(s.x, 5)}};
  if (s.residual) inputs["skip"] = RandomTensor({s.x[0], s.outputs, OutSize(s.x[2], s), OutSize(s.x[3], s)}, 6);
  return inputs;
}

std::vector<std::string> TaskOps(const Graph& graph, const ExecutorOptions& options) {
  EXPECT_TRUE(ContextInfo().ok()) << ContextInfo().status().ToString();  // makes the test context current
  auto executor = Executor::Create(graph, options);
  EXPECT_TRUE(executor.ok()) << executor.status().ToString();
  std::vector<std::string> ops;
  if (executor.ok()) {
    for (const TaskInfo& task : (*executor)->tasks()) ops.push_back(task.op_type);
  }
  return ops;
}

// The pair runs as one task in `variants` and matches the CPU reference of
// the two Convs.
void ExpectFusedAndCorrect(const PairSpec& s, const std::vector<ExecutorOptions>& variants) {
  ASSERT_TRUE(ContextInfo().ok()) << ContextInfo().status().ToString();
  const Graph graph = PairGraph(s);
  const std::map<std::string, TensorData> inputs = PairInputs(s);
  auto reference = cpu_reference::RunGraph(graph, inputs);
  ASSERT_TRUE(reference.ok()) << reference.status().ToString();
  const std::vector<float> want = reference->at("y").ToFloats();
  float largest = 0;
  for (float v : want) largest = std::max(largest, std::fabs(v));
  ASSERT_GT(largest, 0.0f);
  for (const ExecutorOptions& options : variants) {
    SCOPED_TRACE(VariantName(options));
    auto executor = Executor::Create(graph, options);
    ASSERT_TRUE(executor.ok()) << executor.status().ToString();
    ASSERT_EQ((*executor)->tasks().size(), 1u);
    EXPECT_EQ((*executor)->tasks()[0].op_type, kDepthwisePointwiseOp);
    auto outputs = (*executor)->Run(inputs);
    ASSERT_TRUE(outputs.ok()) << outputs.status().ToString();
    const std::vector<float> got = outputs->at("y").ToFloats();
    ASSERT_EQ(got.size(), want.size());
    float error = 0;
    for (size_t i = 0; i < got.size(); ++i) error = std::max(error, std::fabs(got[i] - want[i]));
    EXPECT_LE(error, (options.precision == Precision::kFp16 ? 2e-2f : 1e-4f) * largest);
  }
}

const std::map<std::string, AttributeValue> kRelu6 = {{"fused_activation", std::string("Clip")},
                                                      {"fused_activation_params", std::vector<float>{0.0f, 6.0f}}};

// Every object kind and precision: channels that are not whole slices,
// batch 2, the depthwise ReLU6 and a residual with the pointwise Relu.
TEST(DepthwisePointwiseTest, FusedPairMatchesTheTwoConvs) {
  PairSpec s;
  s.x = {2, 10, 9, 21};
  s.outputs = 6;
  s.depthwise_extra = kRelu6;
  s.pointwise_extra = {{"fused_activation", std::string("Relu")}};
  s.residual = true;
  ExpectFusedAndCorrect(s, AllVariants());
}

// The shapes the kernel blocks differently: narrow outputs (rows along the
// lanes), wide ones, strides, dilations, uneven pads, more output slices
// than one block takes, no biases, other activations.
TEST(DepthwisePointwiseTest, WindowsAndBlocks) {
  std::vector<PairSpec> specs;
  PairSpec narrow;
  narrow.x = {1, 16, 7, 7};
  narrow.outputs = 24;
  specs.push_back(narrow);
  PairSpec wide_strided;
  wide_strided.x = {1, 12, 40, 70};
  wide_strided.stride = 2;
  wide_strided.outputs = 40;  // 10 slices: two blocks
  wide_strided.depthwise_extra = {{"fused_activation", std::string("HardSwish")}};
  specs.push_back(wide_strided);
  PairSpec two_blocks;
  two_blocks.x = {1, 9, 19, 33};
  two_blocks.outputs = 64;  // 16 slices: two blocks, the most a 3x3 window fuses with
  two_blocks.biases = false;
  specs.push_back(two_blocks);
  PairSpec dilated;
  dilated.x = {1, 8, 12, 20};
  dilated.dilation = 2;
  dilated.pad = 2;
  dilated.outputs = 3;
  dilated.pointwise_extra = {{"fused_output_scale", 0.5f}, {"fused_output_shift", 1.0f}};
  specs.push_back(dilated);
  PairSpec uneven = narrow;
  uneven.x = {1, 4, 11, 13};
  uneven.depthwise_extra = {{"pads", std::vector<int64_t>{0, 1, 2, 1}}};  // top 0, bottom 2
  specs.push_back(uneven);
  for (const PairSpec& s : specs) {
    SCOPED_TRACE(ShapeToString(s.x) + " k" + std::to_string(s.kernel) + " s" + std::to_string(s.stride) + " -> " +
                 std::to_string(s.outputs));
    ExpectFusedAndCorrect(s, SweepVariants());
  }
}

// Pairs the pass leaves apart: the depthwise output read twice or kept,
// so many pointwise outputs or so wide a window that the fused kernel
// would recompute too much, a channel multiplier, a 3x3 second Conv, a
// depthwise Conv with an output shift.
TEST(DepthwisePointwiseTest, OtherPairsStayApart) {
  const ExecutorOptions buffers;
  PairSpec base;
  base.x = {1, 8, 10, 10};
  {
    Graph read_twice = PairGraph(base);
    read_twice.outputs.push_back("d");
    EXPECT_EQ(TaskOps(read_twice, buffers).size(), 2u);
  }
  {
    ExecutorOptions keep = buffers;
    keep.keep = {"d"};
    EXPECT_EQ(TaskOps(PairGraph(base), keep).size(), 2u);
  }
  PairSpec wide = base;
  wide.outputs = kMaxBlockSlices * 4 * kMaxDepthwiseRecompute + 4;  // three blocks of a 3x3 window
  EXPECT_EQ(TaskOps(PairGraph(wide), buffers).size(), 2u);
  PairSpec five = base;
  five.kernel = 5;
  five.pad = 2;
  five.outputs = 4;
  EXPECT_EQ(TaskOps(PairGraph(five), buffers).size(), 2u);
  {
    Graph multiplier = PairGraph(base);
    multiplier.nodes[0].attributes["group"] = int64_t{4};  // 2 input channels per output: no depthwise
    multiplier.tensors["wd"].shape = {8, 2, 3, 3};
    multiplier.tensors["wd"].data = RandomTensor({8, 2, 3, 3}, 7);
    EXPECT_EQ(TaskOps(multiplier, buffers).size(), 2u);
  }
  {
    Graph second_3x3 = PairGraph(base);
    second_3x3.nodes[1].attributes["pads"] = std::vector<int64_t>{1, 1, 1, 1};
    second_3x3.tensors["wp"].shape = {8, 8, 3, 3};
    second_3x3.tensors["wp"].data = RandomTensor({8, 8, 3, 3}, 8);
    EXPECT_EQ(TaskOps(second_3x3, buffers).size(), 2u);
  }
  {
    Graph shifted = PairGraph(base);
    shifted.nodes[0].attributes["fused_output_shift"] = 1.0f;
    EXPECT_EQ(TaskOps(shifted, buffers).size(), 2u);
  }
}

// The node itself, as the pass builds it, on the GPU against the CPU
// reference's own DepthwisePointwiseConv, which in turn matches the two
// Convs it stands for.
TEST(DepthwisePointwiseTest, ReferenceOfTheFusedNode) {
  KernelCase c;
  c.node.name = "fused";
  c.node.op_type = kDepthwisePointwiseOp;
  c.node.inputs = {"x", "wd", "bd", "wp", "", "skip"};
  c.node.outputs = {"y"};
  c.node.attributes["kernel_shape"] = std::vector<int64_t>{3, 3};
  c.node.attributes["pads"] = std::vector<int64_t>{1, 1, 1, 1};
  c.node.attributes["strides"] = std::vector<int64_t>{2, 2};
  c.node.attributes[kDepthwiseActivationAttr] = std::string("LeakyRelu");
  c.node.attributes[kDepthwiseActivationParamsAttr] = std::vector<float>{0.1f};
  c.node.attributes["fused_activation"] = std::string("Sigmoid");
  c.inputs["x"] = RandomTensor({1, 6, 9, 8}, 1);
  c.constants["wd"] = RandomTensor({6, 1, 3, 3}, 2);
  c.constants["bd"] = RandomTensor({6}, 3);
  c.constants["wp"] = RandomTensor({5, 6, 1, 1}, 4);
  c.inputs["skip"] = RandomTensor({1, 5, 5, 4}, 5);
  c.outputs["y"] = {1, 5, 5, 4};
  ExpectMatchesReference(c, SweepVariants());

  // Windows the pass does not fuse today (5x5) still run: the kernel takes
  // any window the node carries.
  KernelCase five = c;
  five.node.inputs = {"x", "wd", "bd", "wp", "bp"};
  five.node.attributes["kernel_shape"] = std::vector<int64_t>{5, 5};
  five.node.attributes["pads"] = std::vector<int64_t>{2, 2, 2, 2};
  five.node.attributes["strides"] = std::vector<int64_t>{1, 1};
  five.inputs.erase("skip");
  five.constants["wd"] = RandomTensor({6, 1, 5, 5}, 6);
  five.constants["bp"] = RandomTensor({5}, 7);
  five.outputs["y"] = {1, 5, 9, 8};
  ExpectMatchesReference(five, SweepVariants());

  // The reference against the two Convs it stands for.
  PairSpec s;
  s.x = {1, 6, 9, 8};
  s.stride = 2;
  s.outputs = 5;
  s.residual = true;
  s.depthwise_extra = {{"fused_activation", std::string("LeakyRelu")},
                       {"fused_activation_params", std::vector<float>{0.1f}}};
  s.pointwise_extra = {{"fused_activation", std::string("Sigmoid")}};
  Graph pair = PairGraph(s);
  pair.nodes[1].inputs[2] = "";  // no pointwise bias, as in the fused node
  const std::map<std::string, TensorData> inputs = {{"x", c.inputs["x"]}, {"skip", c.inputs["skip"]}};
  pair.tensors["wd"].data = c.constants["wd"];
  pair.tensors["bd"].data = c.constants["bd"];
  pair.tensors["wp"].data = c.constants["wp"];
  auto want = cpu_reference::RunGraph(pair, inputs);
  ASSERT_TRUE(want.ok()) << want.status().ToString();
  auto got = cpu_reference::RunGraph(GraphOf(c), inputs);
  ASSERT_TRUE(got.ok()) << got.status().ToString();
  const std::vector<float> a = want->at("y").ToFloats(), b = got->at("y").ToFloats();
  ASSERT_EQ(a.size(), b.size());
  for (size_t i = 0; i < a.size(); ++i) EXPECT_NEAR(a[i], b[i], 1e-6f) << i;
}

}  // namespace
}  // namespace glpool::testing
