// RunGraph's contracts: input checks that name the tensor, unsupported ops
// named before anything runs, the fused-activation attribute, shape checks
// against the graph, constants and pass-through outputs.
#include "gpu_backend/cpu_reference/registry.h"
#include "gpu_backend/graph/fused_activation.h"
#include "tests/cpu_reference/cpu_reference_test_util.h"

namespace glpool {
namespace {

using testing_util::ExpectFloats;
using testing_util::Floats;

void AddTensor(Graph& g, const std::string& name, Shape shape, DataType dtype = DataType::kFloat32) {
  Tensor t;
  t.name = name;
  t.dtype = dtype;
  t.shape = std::move(shape);
  g.tensors[name] = t;
}

void AddConstant(Graph& g, const std::string& name, const TensorData& data) {
  Tensor t;
  t.name = name;
  t.dtype = data.dtype;
  t.shape = data.shape;
  t.is_constant = true;
  t.data = data;
  g.tensors[name] = t;
}

Node MakeGraphNode(const std::string& name, const std::string& op, std::vector<std::string> inputs,
                   std::vector<std::string> outputs) {
  Node n;
  n.name = name;
  n.op_type = op;
  n.inputs = std::move(inputs);
  n.outputs = std::move(outputs);
  return n;
}

// x (1x1x2x2) -> Conv(w = 2, b = -3) -> Relu -> y
Graph ConvReluGraph() {
  Graph g;
  g.opset = 13;
  AddTensor(g, "x", {1, 1, 2, 2});
  AddConstant(g, "w", Floats({1, 1, 1, 1}, {2}));
  AddConstant(g, "b", Floats({1}, {-3}));
  AddTensor(g, "c", {1, 1, 2, 2});
  AddTensor(g, "y", {1, 1, 2, 2});
  g.nodes.push_back(MakeGraphNode("conv", "Conv", {"x", "w", "b"}, {"c"}));
  g.nodes.push_back(MakeGraphNode("relu", "Relu", {"c"}, {"y"}));
  g.inputs = {"x"};
  g.outputs = {"y"};
  return g;
}

const std::map<std::string, TensorData> kInputs = {{"x", Floats({1, 1, 2, 2}, {0, 1, 2, 3})}};

TEST(ExecutorTest, RunsNodesInOrder) {
  auto result = cpu_reference::RunGraph(ConvReluGraph(), kInputs);
  ASSERT_TRUE(result.ok()) << result.status().ToString();
  ExpectFloats(result->at("y"), {1, 1, 2, 2}, {0, 0, 1, 3});
}

TEST(ExecutorTest, HonoursTheFusedActivation) {
  Graph g = ConvReluGraph();
  g.nodes.pop_back();
  g.nodes[0].outputs = {"y"};
  g.tensors.erase("c");
  SetFusedActivation(g.nodes[0], {"Clip", {0.0f, 2.0f}});
  auto result = cpu_reference::RunGraph(g, kInputs);
  ASSERT_TRUE(result.ok()) << result.status().ToString();
  ExpectFloats(result->at("y"), {1, 1, 2, 2}, {0, 0, 1, 2});
}

TEST(ExecutorTest, InvalidFusedActivationIsAnError) {
  Graph g = ConvReluGraph();
  SetFusedActivation(g.nodes[0], {"Clip", {0.0f}});
  auto result = cpu_reference::RunGraph(g, kInputs);
  ASSERT_FALSE(result.ok());
  EXPECT_NE(result.status().message().find("'conv'"), std::string::npos) << result.status().message();
}

TEST(ExecutorTest, InputErrorsNameTheTensor) {
  const Graph g = ConvReluGraph();
  auto missing = cpu_reference::RunGraph(g, {});
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(missing.status().message().find("'x'"), std::string::npos);

  auto wrong_shape = cpu_reference::RunGraph(g, {{"x", Floats({1, 1, 3, 3}, std::vector<float>(9))}});
  ASSERT_FALSE(wrong_shape.ok());
  EXPECT_NE(wrong_shape.status().message().find("'x' is float32 1x1x3x3"), std::string::npos)
      << wrong_shape.status().message();
  EXPECT_NE(wrong_shape.status().message().find("1x1x2x2"), std::string::npos);

  auto wrong_dtype = cpu_reference::RunGraph(g, {{"x", TensorData::FromInt64s({1, 1, 2, 2}, {0, 1, 2, 3})}});
  ASSERT_FALSE(wrong_dtype.ok());
  EXPECT_NE(wrong_dtype.status().message().find("int64"), std::string::npos);

  std::map<std::string, TensorData> extra = kInputs;
  extra["z"] = Floats({1}, {0});
  auto unknown = cpu_reference::RunGraph(g, extra);
  ASSERT_FALSE(unknown.ok());
  EXPECT_NE(unknown.status().message().find("'z' is not an input"), std::string::npos);
}

TEST(ExecutorTest, TruncatedInputDataIsAnError) {
  TensorData short_data = Floats({1, 1, 2, 2}, {0, 1, 2, 3});
  short_data.bytes.resize(8);
  auto result = cpu_reference::RunGraph(ConvReluGraph(), {{"x", short_data}});
  ASSERT_FALSE(result.ok());
  EXPECT_NE(result.status().message().find("'x'"), std::string::npos) << result.status().message();
}

TEST(ExecutorTest, UnsupportedOpsAreNamedBeforeRunning) {
  Graph g = ConvReluGraph();
  g.nodes[1].op_type = "Det";
  auto result = cpu_reference::RunGraph(g, kInputs);
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.status().code(), StatusCode::kUnsupported);
  EXPECT_NE(result.status().message().find("Det"), std::string::npos);
  EXPECT_NE(result.status().message().find("'relu'"), std::string::npos);
  EXPECT_FALSE(cpu_reference::CheckGraphSupported(g).ok());
}

TEST(ExecutorTest, OpsOutsideTheirOpsetRangeAreUnsupported) {
  Graph g = ConvReluGraph();
  g.nodes[1].op_type = "HardSwish";  // introduced in opset 14
  auto result = cpu_reference::RunGraph(g, kInputs);
  ASSERT_FALSE(result.ok());
  EXPECT_NE(result.status().message().find("opset 13"), std::string::npos) << result.status().message();
}

TEST(ExecutorTest, DisagreementWithGraphShapesIsReported) {
  Graph g = ConvReluGraph();
  g.tensors["c"].shape = {1, 1, 3, 3};
  auto result = cpu_reference::RunGraph(g, kInputs);
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.status().code(), StatusCode::kInternal);
  EXPECT_NE(result.status().message().find("'c'"), std::string::npos) << result.status().message();
  cpu_reference::RunOptions lenient;
  lenient.check_graph_shapes = false;
  EXPECT_TRUE(cpu_reference::RunGraph(g, kInputs, lenient).ok());
}

TEST(ExecutorTest, KernelErrorsNameTheNode) {
  Graph g = ConvReluGraph();
  g.tensors["w"].data = Floats({1, 2, 1, 1}, {1, 1});
  g.tensors["w"].shape = {1, 2, 1, 1};
  auto result = cpu_reference::RunGraph(g, kInputs);
  ASSERT_FALSE(result.ok());
  EXPECT_NE(result.status().message().find("node 'conv' (Conv)"), std::string::npos) << result.status().message();
}

TEST(ExecutorTest, ConstantAndInputOutputs) {
  Graph g = ConvReluGraph();
  AddConstant(g, "k", Floats({1}, {42}));
  g.outputs = {"y", "k", "x"};
  auto result = cpu_reference::RunGraph(g, kInputs);
  ASSERT_TRUE(result.ok()) << result.status().ToString();
  ExpectFloats(result->at("k"), {1}, {42});
  ExpectFloats(result->at("x"), {1, 1, 2, 2}, {0, 1, 2, 3});
}

TEST(ExecutorTest, KeepAllTensorsReturnsIntermediates) {
  cpu_reference::RunOptions options;
  options.keep_all_tensors = true;
  auto result = cpu_reference::RunGraph(ConvReluGraph(), kInputs, options);
  ASSERT_TRUE(result.ok());
  ExpectFloats(result->at("c"), {1, 1, 2, 2}, {-3, -1, 1, 3});
}

TEST(RegistryTest, EveryOpTheIssueListsIsSupported) {
  for (const char* op :
       {"Conv", "ConvTranspose", "Gemm", "MatMul", "Add", "Sub", "Mul", "Div", "Pow", "Concat", "Slice",
        "Split", "MaxPool", "AveragePool", "GlobalAveragePool", "GlobalMaxPool", "Relu", "Clip", "Sigmoid",
        "Tanh", "HardSigmoid", "HardSwish", "LeakyRelu", "PRelu", "Elu", "Softmax", "LogSoftmax", "Resize",
        "Upsample", "Pad", "Transpose", "Reshape", "Flatten", "Squeeze", "Unsqueeze", "ReduceMean",
        "ReduceSum", "ReduceMax", "Sqrt", "Exp", "Erf", "DepthToSpace", "SpaceToDepth", "Shape", "Gather",
        "Cast", "Constant", "ConstantOfShape", "Range", "Identity", "Dropout", "BatchNormalization", "Neg",
        "Abs", "Reciprocal", "Log", "Equal", "Where"}) {
    EXPECT_TRUE(cpu_reference::IsSupportedOp(op)) << op;
  }
  EXPECT_FALSE(cpu_reference::IsSupportedOp("Det"));
  EXPECT_EQ(cpu_reference::FindKernel("Upsample", 10), nullptr);
  EXPECT_NE(cpu_reference::FindKernel("Upsample", 9), nullptr);
  const std::vector<std::string> ops = cpu_reference::SupportedOps();
  EXPECT_TRUE(std::is_sorted(ops.begin(), ops.end()));
}

}  // namespace
}  // namespace glpool
