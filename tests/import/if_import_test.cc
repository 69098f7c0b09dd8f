// If at import: a condition known then (an initializer, or shape
// arithmetic) inlines the taken branch, whatever shape the other branch
// would give; a condition from data keeps the node, typed from both
// branches, which the CPU reference runs. Hostile forms fail by name.
#include <gtest/gtest.h>

#include "gpu_backend/cpu_reference/executor.h"
#include "gpu_backend/import/onnx_import.h"
#include "model_builder.h"

namespace glpool {
namespace {

using testing_util::BranchGraph;
using testing_util::ModelBuilder;
using testing_util::NodeOf;

onnx::TensorProto BoolScalar(const std::string& name, bool value) {
  onnx::TensorProto tensor;
  tensor.set_name(name);
  tensor.set_data_type(onnx::TensorProto::BOOL);
  tensor.add_int32_data(value ? 1 : 0);
  return tensor;
}

// x [1, 4] -> If(cond): then Mul(x, x) -> [1, 4] (its tensor named "y" like
// the outer output, its node "square" like an outer node); else
// Slice(x, 0:2) -> [1, 2]. Then "square" (outer): Relu.
ModelBuilder IfModel(bool constant_cond, bool cond_value) {
  onnx::GraphProto then_branch = BranchGraph("then", {NodeOf("Mul", {"x", "x"}, {"y"}, "square")}, {"y"});
  onnx::GraphProto else_branch =
      BranchGraph("else", {NodeOf("Slice", {"x", "starts", "ends", "axes"}, {"half"}, "square")}, {"half"});
  ModelBuilder builder;
  builder.Input("x", {1, 4}).Output("y").Int64Init("starts", {1}, {0}).Int64Init("ends", {1}, {2}).Int64Init(
      "axes", {1}, {1});
  if (constant_cond) {
    builder.Init(BoolScalar("cond", cond_value));
  } else {
    builder.FloatInit("zero", {}, {0.0f}).Node("ReduceSum", {"x"}, {"total"}, "total").AttrInt("keepdims", 0);
    builder.Node("Greater", {"total", "zero"}, {"cond"}, "positive");
  }
  builder.Node("If", {"cond"}, {"chosen"}, "pick").AttrGraph("then_branch", then_branch).AttrGraph("else_branch",
                                                                                                   else_branch);
  builder.Node("Relu", {"chosen"}, {"y"}, "square");
  return builder;
}

StatusOr<Graph> Load(const ModelBuilder& builder) {
  return LoadOnnxModel(builder.Save(testing_util::MakeTempDir()));
}

bool HasOp(const Graph& graph, const std::string& op) {
  for (const Node& node : graph.nodes) {
    if (node.op_type == op) return true;
  }
  return false;
}

TEST(IfImportTest, ConstantConditionInlinesTheTakenBranchWhateverTheOtherShape) {
  for (bool value : {true, false}) {
    SCOPED_TRACE(value);
    StatusOr<Graph> graph = Load(IfModel(true, value));
    ASSERT_TRUE(graph.ok()) << graph.status().ToString();
    EXPECT_FALSE(HasOp(*graph, "If"));
    EXPECT_EQ(graph->FindTensor("y")->shape, (value ? Shape{1, 4} : Shape{1, 2}));
    // Node names stay unique although the branch reused the outer ones.
    std::set<std::string> names;
    for (const Node& node : graph->nodes) EXPECT_TRUE(names.insert(node.name).second) << node.name;
    TensorData x = TensorData::FromFloats({1, 4}, {-1.0f, 2.0f, -3.0f, 0.5f});
    auto outputs = cpu_reference::RunGraph(*graph, {{"x", x}});
    ASSERT_TRUE(outputs.ok()) << outputs.status().ToString();
    const std::vector<float> expected =
        value ? std::vector<float>{1.0f, 4.0f, 9.0f, 0.25f} : std::vector<float>{0.0f, 2.0f};
    EXPECT_EQ(outputs->at("y").ToFloats(), expected);
  }
}

TEST(IfImportTest, ShapeDerivedConditionFolds) {
  // cond = (Shape(x)[1] == 4): true for x [1, 4].
  onnx::GraphProto then_branch = BranchGraph("then", {NodeOf("Neg", {"x"}, {"t"})}, {"t"});
  onnx::GraphProto else_branch = BranchGraph("else", {NodeOf("ReduceMax", {"x"}, {"t"})}, {"t"});
  ModelBuilder builder;
  builder.Input("x", {1, 4}).Output("y").Int64Init("one", {}, {1}).Int64Init("four", {}, {4});
  builder.Node("Shape", {"x"}, {"shape"}).Node("Gather", {"shape", "one"}, {"width"}).AttrInt("axis", 0);
  builder.Node("Equal", {"width", "four"}, {"is_four"});
  builder.Node("If", {"is_four"}, {"y"}, "by_width").AttrGraph("then_branch", then_branch).AttrGraph("else_branch",
                                                                                                     else_branch);
  StatusOr<Graph> graph = Load(builder);
  ASSERT_TRUE(graph.ok()) << graph.status().ToString();
  EXPECT_FALSE(HasOp(*graph, "If"));
  EXPECT_FALSE(HasOp(*graph, "ReduceMax"));
  EXPECT_TRUE(HasOp(*graph, "Neg"));
  EXPECT_EQ(graph->FindTensor("y")->shape, (Shape{1, 4}));
}

TEST(IfImportTest, DataConditionKeepsTheNodeAndTheReferenceRunsEitherBranch) {
  // Both branches [1, 4]: then x*x, else x*x too but through Abs first.
  onnx::GraphProto then_branch = BranchGraph("then", {NodeOf("Mul", {"x", "x"}, {"y"})}, {"y"});
  onnx::GraphProto else_branch = BranchGraph(
      "else", {NodeOf("Abs", {"x"}, {"a"}), NodeOf("Add", {"a", "bias"}, {"y"})}, {"y"});
  ModelBuilder builder;
  builder.Input("x", {1, 4}).Output("y").FloatInit("zero", {}, {0.0f}).FloatInit("bias", {1, 4}, {1, 2, 3, 4});
  builder.Node("ReduceSum", {"x"}, {"total"}).AttrInt("keepdims", 0).Node("Greater", {"total", "zero"}, {"cond"});
  builder.Node("If", {"cond"}, {"y"}, "pick").AttrGraph("then_branch", then_branch).AttrGraph("else_branch",
                                                                                              else_branch);
  StatusOr<Graph> graph = Load(builder);
  ASSERT_TRUE(graph.ok()) << graph.status().ToString();
  const Node* pick = nullptr;
  for (const Node& node : graph->nodes) {
    if (node.op_type == "If") pick = &node;
  }
  ASSERT_NE(pick, nullptr);
  // The outer tensors the branches read are the node's inputs after cond.
  EXPECT_EQ(pick->inputs, (std::vector<std::string>{"cond", "x", "bias"}));
  EXPECT_EQ(pick->subgraphs.size(), 2u);
  EXPECT_EQ(graph->FindTensor("y")->shape, (Shape{1, 4}));

  auto positive = cpu_reference::RunGraph(*graph, {{"x", TensorData::FromFloats({1, 4}, {1, 2, -1, 0.5f})}});
  ASSERT_TRUE(positive.ok()) << positive.status().ToString();
  EXPECT_EQ(positive->at("y").ToFloats(), (std::vector<float>{1, 4, 1, 0.25f}));
  auto negative = cpu_reference::RunGraph(*graph, {{"x", TensorData::FromFloats({1, 4}, {-1, -2, 1, 0.5f})}});
  ASSERT_TRUE(negative.ok()) << negative.status().ToString();
  EXPECT_EQ(negative->at("y").ToFloats(), (std::vector<float>{2, 4, 4, 4.5f}));
}

TEST(IfImportTest, DataConditionWithBranchesOfDifferentShapesIsRefusedNamingBoth) {
  StatusOr<Graph> graph = Load(IfModel(false, true));
  ASSERT_FALSE(graph.ok());
  EXPECT_EQ(graph.status().code(), StatusCode::kUnsupported);
  const std::string& message = graph.status().message();
  EXPECT_NE(message.find("node 'pick' (If)"), std::string::npos) << message;
  EXPECT_NE(message.find("then_branch gives 1x4"), std::string::npos) << message;
  EXPECT_NE(message.find("else_branch 1x2"), std::string::npos) << message;
}

TEST(IfImportTest, HostileFormsFailByName) {
  // A constant condition with two elements.
  {
    ModelBuilder builder = IfModel(true, true);
    onnx::TensorProto* cond = builder.model().mutable_graph()->mutable_initializer(3);
    ASSERT_EQ(cond->name(), "cond");
    cond->add_dims(2);
    cond->add_int32_data(1);
    StatusOr<Graph> graph = Load(builder);
    ASSERT_FALSE(graph.ok());
    EXPECT_NE(graph.status().message().find("has 2 elements; If needs one"), std::string::npos)
        << graph.status().message();
  }
  // A branch giving two outputs to a node with one.
  {
    onnx::GraphProto two = BranchGraph("then", {NodeOf("Neg", {"x"}, {"a"}), NodeOf("Abs", {"x"}, {"b"})}, {"a", "b"});
    ModelBuilder builder;
    builder.Input("x", {1, 4}).Output("y").Init(BoolScalar("cond", true));
    builder.Node("If", {"cond"}, {"y"}, "pick").AttrGraph("then_branch", two).AttrGraph("else_branch", two);
    StatusOr<Graph> graph = Load(builder);
    ASSERT_FALSE(graph.ok());
    EXPECT_NE(graph.status().message().find("then_branch gives 2 outputs, the node has 1"), std::string::npos)
        << graph.status().message();
  }
  // A branch reading a name defined nowhere.
  {
    onnx::GraphProto lost = BranchGraph("then", {NodeOf("Neg", {"nowhere"}, {"a"})}, {"a"});
    ModelBuilder builder;
    builder.Input("x", {1, 4}).Output("y").Init(BoolScalar("cond", true));
    builder.Node("If", {"cond"}, {"y"}, "pick").AttrGraph("then_branch", lost).AttrGraph("else_branch", lost);
    StatusOr<Graph> graph = Load(builder);
    ASSERT_FALSE(graph.ok());
    EXPECT_NE(graph.status().message().find("'nowhere'"), std::string::npos) << graph.status().message();
  }
  // Ifs nested past the limit.
  {
    onnx::GraphProto branch = BranchGraph("leaf", {NodeOf("Neg", {"x"}, {"t"})}, {"t"});
    for (int depth = 0; depth < 12; ++depth) {
      onnx::NodeProto nested = NodeOf("If", {"cond"}, {"t"});
      onnx::AttributeProto* then_attr = nested.add_attribute();
      then_attr->set_name("then_branch");
      then_attr->set_type(onnx::AttributeProto::GRAPH);
      *then_attr->mutable_g() = branch;
      onnx::AttributeProto* else_attr = nested.add_attribute();
      *else_attr = *then_attr;
      else_attr->set_name("else_branch");
      branch = BranchGraph("level" + std::to_string(depth), {nested}, {"t"});
    }
    ModelBuilder builder;
    builder.Input("x", {1, 4}).Output("y").Init(BoolScalar("cond", true));
    builder.Node("If", {"cond"}, {"y"}, "outer").AttrGraph("then_branch", branch).AttrGraph("else_branch", branch);
    StatusOr<Graph> graph = Load(builder);
    ASSERT_FALSE(graph.ok());
    EXPECT_NE(graph.status().message().find("nested more than 8 deep"), std::string::npos) << graph.status().message();
  }
}

}  // namespace
}  // namespace glpool
