// Broken inputs give clear errors naming the file, node or tensor, and
// nothing crashes.
#include <gtest/gtest.h>

#include <fstream>
#include <random>

#include "gpu_backend/import/onnx_import.h"
#include "model_builder.h"

namespace glpool {
namespace {

using testing_util::ModelBuilder;

ModelBuilder ConvModel(const std::vector<int64_t>& input_dims) {
  ModelBuilder builder;
  builder.Input("X", input_dims)
      .FloatInit("W", {4, 3, 3, 3}, std::vector<float>(108, 0.1f))
      .Node("Conv", {"X", "W"}, {"C"}, "conv")
      .AttrInts("pads", {1, 1, 1, 1})
      .Node("Relu", {"C"}, {"Y"}, "relu")
      .Output("Y");
  return builder;
}

bool Mentions(const Status& status, const std::string& text) {
  return status.message().find(text) != std::string::npos;
}

TEST(ImportErrors, MissingFile) {
  StatusOr<Graph> graph = LoadOnnxModel("/nonexistent/model.onnx");
  EXPECT_EQ(graph.status().code(), StatusCode::kNotFound);
  EXPECT_TRUE(Mentions(graph.status(), "/nonexistent/model.onnx"));
}

TEST(ImportErrors, CorruptFile) {
  const std::string path = testing_util::MakeTempDir() + "/corrupt.onnx";
  std::mt19937 random(7);
  std::ofstream out(path, std::ios::binary);
  for (int i = 0; i < 4096; ++i) out.put(static_cast<char>(random()));
  out.close();
  StatusOr<Graph> graph = LoadOnnxModel(path);
  ASSERT_FALSE(graph.ok());
  EXPECT_EQ(graph.status().code(), StatusCode::kInvalidModel);
  EXPECT_TRUE(Mentions(graph.status(), "corrupt.onnx")) << graph.status().ToString();
}

TEST(ImportErrors, TruncatedFileAtEveryLength) {
  const std::string dir = testing_util::MakeTempDir();
  const std::string whole = ConvModel({1, 3, 8, 8}).Save(dir);
  std::ifstream in(whole, std::ios::binary);
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  ASSERT_TRUE(LoadOnnxModel(whole).ok());
  // Every prefix must fail cleanly (some parse as smaller valid protobufs;
  // then the graph is incomplete) and none may crash.
  for (size_t length = 0; length < bytes.size(); length += 7) {
    const std::string path = dir + "/truncated.onnx";
    std::ofstream(path, std::ios::binary).write(bytes.data(), static_cast<std::streamsize>(length));
    StatusOr<Graph> graph = LoadOnnxModel(path);
    ASSERT_FALSE(graph.ok()) << "prefix of " << length << " bytes imported";
    EXPECT_TRUE(Mentions(graph.status(), "truncated.onnx")) << graph.status().ToString();
  }
}

TEST(ImportErrors, UnknownOpNamesNodeAndOp) {
  ModelBuilder builder;
  builder.Input("X", {1, 4}).Node("FrobnicateAll", {"X"}, {"Y"}, "frob").Output("Y");
  StatusOr<Graph> graph = LoadOnnxModel(builder.Save(testing_util::MakeTempDir()));
  ASSERT_FALSE(graph.ok());
  EXPECT_EQ(graph.status().code(), StatusCode::kUnsupported);
  EXPECT_TRUE(Mentions(graph.status(), "'frob'") && Mentions(graph.status(), "FrobnicateAll"))
      << graph.status().ToString();
}

TEST(ImportErrors, CustomDomainIsUnsupported) {
  ModelBuilder builder;
  builder.Input("X", {1, 4}).Node("Relu", {"X"}, {"Y"}, "r").Output("Y");
  builder.model().mutable_graph()->mutable_node(0)->set_domain("com.example");
  StatusOr<Graph> graph = LoadOnnxModel(builder.Save(testing_util::MakeTempDir()));
  EXPECT_EQ(graph.status().code(), StatusCode::kUnsupported);
  EXPECT_TRUE(Mentions(graph.status(), "com.example"));
}

TEST(ImportErrors, OpsetOutOfRange) {
  ModelBuilder builder(22);
  builder.Input("X", {1, 4}).Node("Relu", {"X"}, {"Y"}).Output("Y");
  StatusOr<Graph> graph = LoadOnnxModel(builder.Save(testing_util::MakeTempDir()));
  EXPECT_EQ(graph.status().code(), StatusCode::kUnsupported);
  EXPECT_TRUE(Mentions(graph.status(), "opset 22"));
}

TEST(ImportErrors, WrongInputShapeFlag) {
  const std::string path = ConvModel({1, 3, 8, 8}).Save(testing_util::MakeTempDir());
  ImportOptions options;
  options.input_shapes["X"] = {1, 3, 16, 16};
  StatusOr<Graph> graph = LoadOnnxModel(path, options);
  EXPECT_EQ(graph.status().code(), StatusCode::kInvalidArgument);
  EXPECT_TRUE(Mentions(graph.status(), "'X'") && Mentions(graph.status(), "1x3x8x8")) << graph.status().ToString();

  options.input_shapes["X"] = {1, 3, 8};
  graph = LoadOnnxModel(path, options);
  EXPECT_EQ(graph.status().code(), StatusCode::kInvalidArgument);
  EXPECT_TRUE(Mentions(graph.status(), "rank")) << graph.status().ToString();

  options.input_shapes.clear();
  options.input_shapes["image"] = {1, 3, 8, 8};
  graph = LoadOnnxModel(path, options);
  EXPECT_EQ(graph.status().code(), StatusCode::kInvalidArgument);
  EXPECT_TRUE(Mentions(graph.status(), "'image'") && Mentions(graph.status(), "X")) << graph.status().ToString();
}

TEST(ImportErrors, InputShapeThatBreaksAnOpNamesTheNode) {
  // 5 channels into a Conv whose weight expects 3.
  const std::string path = ConvModel({1, -1, 8, 8}).Save(testing_util::MakeTempDir());
  ImportOptions options;
  options.input_shapes["X"] = {1, 5, 8, 8};
  StatusOr<Graph> graph = LoadOnnxModel(path, options);
  EXPECT_EQ(graph.status().code(), StatusCode::kInvalidModel);
  EXPECT_TRUE(Mentions(graph.status(), "'conv'")) << graph.status().ToString();
}

TEST(ImportErrors, DynamicInputDimNamesTheTensorAndFixes) {
  const std::string path = ConvModel({-1, 3, 8, 8}).Save(testing_util::MakeTempDir());
  StatusOr<Graph> graph = LoadOnnxModel(path);
  EXPECT_EQ(graph.status().code(), StatusCode::kInvalidArgument);
  EXPECT_TRUE(Mentions(graph.status(), "'X'") && Mentions(graph.status(), "--input-shape"))
      << graph.status().ToString();
  ImportOptions options;
  ASSERT_TRUE(ParseInputShapeFlag("X=2x3x8x8", &options).ok());
  graph = LoadOnnxModel(path, options);
  ASSERT_TRUE(graph.ok()) << graph.status().ToString();
  EXPECT_EQ(graph->FindTensor("Y")->shape, (Shape{2, 4, 8, 8}));
}

TEST(ImportErrors, UndefinedTensorAndCycle) {
  ModelBuilder undefined;
  undefined.Input("X", {1, 4}).Node("Add", {"X", "ghost"}, {"Y"}, "add").Output("Y");
  StatusOr<Graph> graph = LoadOnnxModel(undefined.Save(testing_util::MakeTempDir()));
  EXPECT_EQ(graph.status().code(), StatusCode::kInvalidModel);
  EXPECT_TRUE(Mentions(graph.status(), "'ghost'") && Mentions(graph.status(), "'add'")) << graph.status().ToString();

  ModelBuilder cycle;
  cycle.Input("X", {1, 4}).Node("Add", {"X", "B"}, {"A"}, "a").Node("Relu", {"A"}, {"B"}, "b").Output("B");
  graph = LoadOnnxModel(cycle.Save(testing_util::MakeTempDir()));
  EXPECT_EQ(graph.status().code(), StatusCode::kInvalidModel);
  EXPECT_TRUE(Mentions(graph.status(), "cycle")) << graph.status().ToString();

  ModelBuilder no_output;
  no_output.Input("X", {1, 4}).Node("Relu", {"X"}, {"Y"}).Output("Z");
  graph = LoadOnnxModel(no_output.Save(testing_util::MakeTempDir()));
  EXPECT_EQ(graph.status().code(), StatusCode::kInvalidModel);
  EXPECT_TRUE(Mentions(graph.status(), "'Z'")) << graph.status().ToString();
}

TEST(ImportErrors, ShapeComputedAtRunTimeNamesTheTensor) {
  // Reshape whose target comes from a graph input: no static shape.
  ModelBuilder builder;
  builder.Input("X", {2, 6}).Input("S", {2}, onnx::TensorProto::INT64).Node("Reshape", {"X", "S"}, {"Y"}, "reshape")
      .Output("Y");
  StatusOr<Graph> graph = LoadOnnxModel(builder.Save(testing_util::MakeTempDir()));
  EXPECT_EQ(graph.status().code(), StatusCode::kUnsupported);
  EXPECT_TRUE(Mentions(graph.status(), "'Y'") && Mentions(graph.status(), "'reshape'")) << graph.status().ToString();
}

TEST(ImportErrors, ParseShape) {
  EXPECT_EQ(*ParseShape("1x3x640x640"), (Shape{1, 3, 640, 640}));
  EXPECT_EQ(*ParseShape("scalar"), Shape{});
  EXPECT_FALSE(ParseShape("1x-3").ok());
  EXPECT_FALSE(ParseShape("1xx3").ok());
  ImportOptions options;
  EXPECT_FALSE(ParseInputShapeFlag("1x3", &options).ok());
}

}  // namespace
}  // namespace glpool
