// Opsets 18-21: nodes are checked against the signatures those opsets give
// (glpool's table past libonnx's opset 17), and the shapes their new forms
// ask for come out of the import.
#include <gtest/gtest.h>

#include "gpu_backend/import/onnx_import.h"
#include "gpu_backend/import/op_signatures.h"
#include "model_builder.h"

namespace glpool {
namespace {

using testing_util::ModelBuilder;

bool Mentions(const Status& status, const std::string& text) {
  return status.message().find(text) != std::string::npos;
}

StatusOr<Graph> Load(const ModelBuilder& builder) {
  return LoadOnnxModel(builder.Save(testing_util::MakeTempDir()));
}

TEST(NewerOpsets, EveryOpsetFrom18To21Imports) {
  for (int64_t opset = 18; opset <= kMaxSupportedOpset; ++opset) {
    ModelBuilder builder(opset);
    builder.Input("X", {1, 4}).Node("Relu", {"X"}, {"Y"}).Output("Y");
    StatusOr<Graph> graph = Load(builder);
    EXPECT_TRUE(graph.ok()) << "opset " << opset << ": " << graph.status().ToString();
  }
}

TEST(NewerOpsets, ReductionTakesAxesAsAnInputFrom18) {
  ModelBuilder builder(18);
  builder.Input("X", {2, 3, 5})
      .Int64Init("axes", {1}, {-1})
      .Node("ReduceMean", {"X", "axes"}, {"Y"})
      .AttrInt("keepdims", 0)
      .Output("Y");
  StatusOr<Graph> graph = Load(builder);
  ASSERT_TRUE(graph.ok()) << graph.status().ToString();
  EXPECT_EQ(graph->tensors.at("Y").shape, (Shape{2, 3}));
}

TEST(NewerOpsets, TheAxesAttributeIsGoneFrom18) {
  ModelBuilder builder(18);
  builder.Input("X", {2, 3, 5}).Node("ReduceMax", {"X"}, {"Y"}).AttrInts("axes", {1}).Output("Y");
  StatusOr<Graph> graph = Load(builder);
  EXPECT_EQ(graph.status().code(), StatusCode::kInvalidModel);
  EXPECT_TRUE(Mentions(graph.status(), "'axes' is not an attribute of ReduceMax (opset 18)"))
      << graph.status().ToString();
}

TEST(NewerOpsets, SplitNumOutputsLeavesTheLastPartSmaller) {
  ModelBuilder builder(18);
  builder.Input("X", {10, 2}).Node("Split", {"X"}, {"A", "B", "C", "D"}).AttrInt("num_outputs", 4);
  builder.Output("A").Output("D");
  StatusOr<Graph> graph = Load(builder);
  ASSERT_TRUE(graph.ok()) << graph.status().ToString();
  EXPECT_EQ(graph->tensors.at("A").shape, (Shape{3, 2}));
  EXPECT_EQ(graph->tensors.at("D").shape, (Shape{1, 2}));
}

TEST(NewerOpsets, SplitNumOutputsMustMatchTheOutputs) {
  ModelBuilder builder(18);
  builder.Input("X", {10, 2}).Node("Split", {"X"}, {"A", "B"}).AttrInt("num_outputs", 3).Output("A");
  StatusOr<Graph> graph = Load(builder);
  EXPECT_EQ(graph.status().code(), StatusCode::kInvalidModel);
  EXPECT_TRUE(Mentions(graph.status(), "num_outputs 3")) << graph.status().ToString();
}

TEST(NewerOpsets, PadAxesNameThePaddedDims) {
  ModelBuilder builder(18);
  builder.Input("X", {1, 2, 3, 4})
      .Int64Init("pads", {4}, {1, 2, 3, 4})
      .Int64Init("axes", {2}, {-1, 1})
      .Node("Pad", {"X", "pads", "", "axes"}, {"Y"})
      .Output("Y");
  StatusOr<Graph> graph = Load(builder);
  ASSERT_TRUE(graph.ok()) << graph.status().ToString();
  EXPECT_EQ(graph->tensors.at("Y").shape, (Shape{1, 2 + 2 + 4, 3, 4 + 1 + 3}));
}

TEST(NewerOpsets, ResizeSizesWithKeepAspectRatio) {
  for (const auto& [policy, expected] : std::vector<std::pair<const char*, Shape>>{
           {"not_larger", Shape{1, 1, 5, 10}}, {"not_smaller", Shape{1, 1, 10, 20}}, {"stretch", Shape{1, 1, 10, 10}}}) {
    ModelBuilder builder(18);
    builder.Input("X", {1, 1, 4, 8}).Int64Init("sizes", {2}, {10, 10}).Node("Resize", {"X", "", "", "sizes"}, {"Y"});
    builder.AttrInts("axes", {2, 3});
    onnx::AttributeProto* attr = builder.model().mutable_graph()->mutable_node(0)->add_attribute();
    attr->set_name("keep_aspect_ratio_policy");
    attr->set_type(onnx::AttributeProto::STRING);
    attr->set_s(policy);
    builder.Output("Y");
    StatusOr<Graph> graph = Load(builder);
    ASSERT_TRUE(graph.ok()) << policy << ": " << graph.status().ToString();
    EXPECT_EQ(graph->tensors.at("Y").shape, expected) << policy;
  }
}

TEST(NewerOpsets, NewOpsNeedTheirOpset) {
  ModelBuilder builder(17);
  builder.Input("X", {1, 4}).Node("Gelu", {"X"}, {"Y"}).Output("Y");
  StatusOr<Graph> graph = Load(builder);
  EXPECT_EQ(graph.status().code(), StatusCode::kUnsupported);
  EXPECT_TRUE(Mentions(graph.status(), "unknown op 'Gelu' (no such op in ONNX opset 17)")) << graph.status().ToString();
}

TEST(NewerOpsets, AddedOpsGlpoolDoesNotReadAreNamed) {
  ModelBuilder builder(18);
  builder.Input("X", {1, 4}, onnx::TensorProto::INT32).Node("BitwiseNot", {"X"}, {"Y"}).Output("Y");
  StatusOr<Graph> graph = Load(builder);
  EXPECT_EQ(graph.status().code(), StatusCode::kUnsupported);
  EXPECT_TRUE(Mentions(graph.status(), "'BitwiseNot' (added in ONNX opsets 18-21) is not supported"))
      << graph.status().ToString();
}

TEST(NewerOpsets, GroupNormalizationScaleFollowsTheOpset) {
  // Opset 21 scales per channel (18 per group); the kernels check which.
  ModelBuilder builder(21);
  builder.Input("X", {1, 6, 2, 2})
      .FloatInit("scale", {6}, std::vector<float>(6, 1.0f))
      .FloatInit("bias", {6}, std::vector<float>(6, 0.0f))
      .Node("GroupNormalization", {"X", "scale", "bias"}, {"Y"})
      .AttrInt("num_groups", 3)
      .Output("Y");
  StatusOr<Graph> graph = Load(builder);
  ASSERT_TRUE(graph.ok()) << graph.status().ToString();
  EXPECT_EQ(graph->tensors.at("Y").shape, (Shape{1, 6, 2, 2}));
}

TEST(NewerOpsets, RequiredAttributeOfANewOp) {
  ModelBuilder builder(18);
  builder.Input("X", {1, 6, 2, 2})
      .FloatInit("scale", {3}, std::vector<float>(3, 1.0f))
      .FloatInit("bias", {3}, std::vector<float>(3, 0.0f))
      .Node("GroupNormalization", {"X", "scale", "bias"}, {"Y"})
      .Output("Y");
  StatusOr<Graph> graph = Load(builder);
  EXPECT_EQ(graph.status().code(), StatusCode::kInvalidModel);
  EXPECT_TRUE(Mentions(graph.status(), "required attribute 'num_groups' is missing")) << graph.status().ToString();
}

}  // namespace
}  // namespace glpool
