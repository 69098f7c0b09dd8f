// Shape arithmetic folds to constants and every shape comes out static.
#include <gtest/gtest.h>

#include "gpu_backend/import/onnx_import.h"
#include "model_builder.h"

namespace glpool {
namespace {

using testing_util::ModelBuilder;

int CountOps(const Graph& graph, const std::string& op) {
  int count = 0;
  for (const Node& node : graph.nodes) count += node.op_type == op;
  return count;
}

TEST(ShapeFolding, ShapeGatherConcatReshapeWithDynamicBatch) {
  // Y = Reshape(X, Concat(Unsqueeze(Gather(Shape(X), 0)), [-1])): a flatten
  // written as PyTorch exports it, on a batch the model leaves symbolic.
  ModelBuilder builder;
  builder.Input("X", {-1, 8, 4, 4})
      .Int64Init("zero", {}, {0})
      .Int64Init("axes", {1}, {0})
      .Int64Init("minus_one", {1}, {-1})
      .Node("Shape", {"X"}, {"shape"})
      .Node("Gather", {"shape", "zero"}, {"batch"})
      .AttrInt("axis", 0)
      .Node("Unsqueeze", {"batch", "axes"}, {"batch_1d"})
      .Node("Concat", {"batch_1d", "minus_one"}, {"target"})
      .AttrInt("axis", 0)
      .Node("Reshape", {"X", "target"}, {"Y"}, "flatten")
      .Output("Y");
  ImportOptions options;
  options.input_shapes["X"] = {3, 8, 4, 4};
  StatusOr<Graph> graph = LoadOnnxModel(builder.Save(testing_util::MakeTempDir()), options);
  ASSERT_TRUE(graph.ok()) << graph.status().ToString();
  ASSERT_EQ(graph->nodes.size(), 1u);
  EXPECT_EQ(graph->nodes[0].name, "flatten");
  EXPECT_EQ(graph->FindTensor("target")->data.ToInt64s(), (std::vector<int64_t>{3, -1}));
  EXPECT_EQ(graph->FindTensor("Y")->shape, (Shape{3, 128}));
}

TEST(ShapeFolding, ResizeToTheSizeOfAnotherTensor) {
  // sizes = Concat(Slice(Shape(X), 0, 2), Slice(Shape(R), 2, 4)), the
  // segmentation-head pattern.
  ModelBuilder builder;
  builder.Input("X", {1, 4, 5, 5})
      .Input("R", {1, 2, 20, 20})
      .Int64Init("s0", {1}, {0})
      .Int64Init("s2", {1}, {2})
      .Int64Init("s4", {1}, {4})
      .Node("Shape", {"X"}, {"xs"})
      .Node("Slice", {"xs", "s0", "s2"}, {"nc"})
      .Node("Shape", {"R"}, {"rs"})
      .Node("Slice", {"rs", "s2", "s4"}, {"hw"})
      .Node("Concat", {"nc", "hw"}, {"sizes"})
      .AttrInt("axis", 0)
      .Node("Resize", {"X", "", "", "sizes"}, {"Y"}, "resize")
      .Output("Y");
  StatusOr<Graph> graph = LoadOnnxModel(builder.Save(testing_util::MakeTempDir()));
  ASSERT_TRUE(graph.ok()) << graph.status().ToString();
  EXPECT_EQ(CountOps(*graph, "Shape"), 0);
  EXPECT_EQ(graph->nodes.size(), 1u);
  EXPECT_EQ(graph->FindTensor("Y")->shape, (Shape{1, 4, 20, 20}));
}

TEST(ShapeFolding, ConstantNodesConstantOfShapeRangeEqualWhere) {
  // The ViT class-token pattern: Where(Equal(shape, -1), ones, shape) -> Expand.
  onnx::TensorProto target = testing_util::Int64TensorRaw("", {3}, {2, -1, 4});
  ModelBuilder builder;
  builder.Input("X", {1, 1, 4})
      .Node("Constant", {}, {"target"})
      .AttrTensor("value", target)
      .Node("Constant", {}, {"minus"})
      .AttrTensor("value", testing_util::Int64TensorRaw("", {}, {-1}))
      .Node("Equal", {"target", "minus"}, {"is_minus"})
      .Node("ConstantOfShape", {"three"}, {"ones"})
      .AttrTensor("value", testing_util::Int64TensorRaw("", {1}, {1}))
      .Node("Where", {"is_minus", "ones", "target"}, {"expand_to"})
      .Node("Expand", {"X", "expand_to"}, {"E"}, "expand")
      .Node("Range", {"r0", "r5", "r1"}, {"range"})
      .Node("Cast", {"range"}, {"range_f"})
      .AttrInt("to", onnx::TensorProto::FLOAT)
      .Node("Add", {"E", "range_f4"}, {"Y"}, "add")
      .Node("Slice", {"range_f", "s1", "big"}, {"range_f4"})
      .Int64Init("three", {1}, {3})
      .Int64Init("r0", {}, {0})
      .Int64Init("r5", {}, {5})
      .Int64Init("r1", {}, {1})
      .Int64Init("s1", {1}, {1})
      .Int64Init("big", {1}, {INT64_MAX})
      .Output("Y");
  StatusOr<Graph> graph = LoadOnnxModel(builder.Save(testing_util::MakeTempDir()));
  ASSERT_TRUE(graph.ok()) << graph.status().ToString();
  EXPECT_EQ(CountOps(*graph, "Constant"), 0);
  ASSERT_EQ(graph->nodes.size(), 2u);  // Expand and Add stay: they read X
  EXPECT_EQ(graph->FindTensor("expand_to")->data.ToInt64s(), (std::vector<int64_t>{2, 1, 4}));
  EXPECT_EQ(graph->FindTensor("range_f4")->data.ToFloats(), (std::vector<float>{1, 2, 3, 4}));
  EXPECT_EQ(graph->FindTensor("Y")->shape, (Shape{2, 1, 4}));
  // Nodes were stored out of order (Slice after its reader); import sorts.
  EXPECT_EQ(graph->nodes[0].name, "expand");
}

TEST(ShapeFolding, IntegerArithmeticOnShapes) {
  // Channel shuffle as exported: C/2 computed from Shape with Div and Mul.
  ModelBuilder builder;
  builder.Input("X", {1, 6, 2, 2})
      .Int64Init("one", {}, {1})
      .Int64Init("two", {}, {2})
      .Int64Init("axes", {1}, {0})
      .Node("Shape", {"X"}, {"shape"})
      .Node("Gather", {"shape", "one"}, {"c"})
      .Node("Div", {"c", "two"}, {"half"})
      .Node("Mul", {"half", "two"}, {"c_again"})
      .Node("Sub", {"c_again", "half"}, {"half_again"})
      .Node("Unsqueeze", {"half_again", "axes"}, {"h1"})
      .Node("Unsqueeze", {"two", "axes"}, {"g1"})
      .Int64Init("rest", {2}, {2, 2})
      .Int64Init("batch", {1}, {1})
      .Node("Concat", {"batch", "g1", "h1", "rest"}, {"target"})
      .AttrInt("axis", 0)
      .Node("Reshape", {"X", "target"}, {"Y"})
      .Output("Y");
  StatusOr<Graph> graph = LoadOnnxModel(builder.Save(testing_util::MakeTempDir()));
  ASSERT_TRUE(graph.ok()) << graph.status().ToString();
  EXPECT_EQ(graph->nodes.size(), 1u);
  EXPECT_EQ(graph->FindTensor("Y")->shape, (Shape{1, 2, 3, 2, 2}));
}

TEST(ShapeFolding, WithoutFoldingRunTimeShapesAreRefused) {
  ModelBuilder builder;
  builder.Input("X", {2, 3}).Node("Shape", {"X"}, {"s"}).Node("Reshape", {"X", "s"}, {"Y"}).Output("Y");
  ImportOptions options;
  options.fold_constants = false;
  StatusOr<Graph> graph = LoadOnnxModel(builder.Save(testing_util::MakeTempDir()), options);
  // ONNX's own inference (with data propagation) may still resolve it.
  if (graph.ok()) {
    EXPECT_EQ(graph->FindTensor("Y")->shape, (Shape{2, 3}));
    EXPECT_EQ(graph->nodes.size(), 2u);
  } else {
    EXPECT_EQ(graph.status().code(), StatusCode::kUnsupported);
  }
}

TEST(ShapeFolding, OpsetFormsOfSliceAndSqueeze) {
  // Opset 9: Slice and Squeeze/Unsqueeze take attributes.
  ModelBuilder builder(9);
  builder.Input("X", {1, 6, 5})
      .Node("Slice", {"X"}, {"S"}, "slice")
      .AttrInts("starts", {1, -3})
      .AttrInts("ends", {4, 1000})
      .AttrInts("axes", {1, 2})
      .Node("Unsqueeze", {"S"}, {"U"})
      .AttrInts("axes", {0})
      .Node("Squeeze", {"U"}, {"Y"})
      .AttrInts("axes", {0, 1})
      .Output("Y");
  StatusOr<Graph> graph = LoadOnnxModel(builder.Save(testing_util::MakeTempDir()));
  ASSERT_TRUE(graph.ok()) << graph.status().ToString();
  EXPECT_EQ(graph->FindTensor("S")->shape, (Shape{1, 3, 3}));
  EXPECT_EQ(graph->FindTensor("Y")->shape, (Shape{3, 3}));
}

TEST(ShapeFolding, PoolingCeilModeAndConvAutoPad) {
  ModelBuilder builder;
  builder.Input("X", {1, 2, 10, 10})
      .FloatInit("W", {4, 1, 3, 3}, std::vector<float>(36, 1.0f))
      .Node("MaxPool", {"X"}, {"P"})
      .AttrInts("kernel_shape", {3, 3})
      .AttrInts("strides", {2, 2})
      .AttrInt("ceil_mode", 1)
      .Node("Conv", {"P", "W"}, {"Y"})
      .AttrInt("group", 2)
      .AttrInts("strides", {2, 2})
      .Output("Y");
  builder.model().mutable_graph()->mutable_node(1)->add_attribute()->CopyFrom([] {
    onnx::AttributeProto a;
    a.set_name("auto_pad");
    a.set_type(onnx::AttributeProto::STRING);
    a.set_s("SAME_UPPER");
    return a;
  }());
  StatusOr<Graph> graph = LoadOnnxModel(builder.Save(testing_util::MakeTempDir()));
  ASSERT_TRUE(graph.ok()) << graph.status().ToString();
  EXPECT_EQ(graph->FindTensor("P")->shape, (Shape{1, 2, 5, 5}));
  EXPECT_EQ(graph->FindTensor("Y")->shape, (Shape{1, 4, 3, 3}));
}

}  // namespace
}  // namespace glpool
