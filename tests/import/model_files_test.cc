// Imports the real models in ../shared: the runnable models with their
// reference tensors, and the graph-only zoo with random weights.
#include <gtest/gtest.h>

#include <dirent.h>
#include <sys/stat.h>

#include <algorithm>
#include <string>
#include <vector>

#include <onnx/shape_inference/implementation.h>

#include "gpu_backend/import/file_util.h"
#include "gpu_backend/import/onnx_import.h"

namespace glpool {
namespace {

const std::string kShared = GLPOOL_SHARED_DIR;

// Names in `dir` ending in `suffix`; with an empty suffix, the subfolders.
std::vector<std::string> ListDir(const std::string& dir, const std::string& suffix) {
  std::vector<std::string> names;
  DIR* d = opendir(dir.c_str());
  if (!d) return names;
  while (dirent* entry = readdir(d)) {
    std::string name = entry->d_name;
    if (name == "." || name == "..") continue;
    struct stat info;
    const bool is_dir = stat((dir + "/" + name).c_str(), &info) == 0 && S_ISDIR(info.st_mode);
    if (suffix.empty() != is_dir) continue;
    if (name.size() >= suffix.size() && name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0) {
      names.push_back(name);
    }
  }
  closedir(d);
  std::sort(names.begin(), names.end());
  return names;
}

void ExpectFullyStatic(const Graph& graph, const std::string& label) {
  for (const auto& [name, tensor] : graph.tensors) {
    EXPECT_NE(tensor.dtype, DataType::kUndefined) << label << ": " << name;
    for (int64_t d : tensor.shape) EXPECT_GE(d, 0) << label << ": " << name;
    if (tensor.is_constant) {
      EXPECT_EQ(tensor.data.bytes.size(), static_cast<size_t>(ElementCount(tensor.shape)) * DataTypeSize(tensor.dtype))
          << label << ": " << name;
    }
  }
  for (const Node& node : graph.nodes) {
    EXPECT_NE(node.op_type, "Constant") << label;
    for (const std::string& in : node.inputs) {
      if (!in.empty()) {
        EXPECT_NE(graph.FindTensor(in), nullptr) << label << ": " << in;
      }
    }
  }
}

TEST(ModelFiles, SharedRunnableModelsImportWithTheirTestData) {
  const std::string dir = kShared + "/models";
  const std::vector<std::string> models = ListDir(dir, "");
  ASSERT_FALSE(models.empty()) << "missing folder " << dir << " (the shared models must sit beside the repository)";
  for (const std::string& model : models) {
    const std::string base = dir + "/" + model;
    StatusOr<Graph> graph = LoadOnnxModel(base + "/model.onnx");
    ASSERT_TRUE(graph.ok()) << graph.status().ToString();
    ExpectFullyStatic(*graph, model);
    ASSERT_EQ(graph->inputs.size(), 1u) << model;
    StatusOr<TensorData> input = LoadTensorProtoFile(base + "/test_data_set_0/input_0.pb");
    ASSERT_TRUE(input.ok()) << input.status().ToString();
    EXPECT_EQ(input->shape, graph->FindTensor(graph->inputs[0])->shape) << model;
    StatusOr<TensorData> output = LoadTensorProtoFile(base + "/test_data_set_0/output_0.pb");
    ASSERT_TRUE(output.ok()) << output.status().ToString();
    EXPECT_EQ(output->shape, graph->FindTensor(graph->outputs[0])->shape) << model;
  }
}

TEST(ModelFiles, ZooModelsImportWithStaticShapesAndRandomWeights) {
  const std::string dir = kShared + "/zoo";
  const std::vector<std::string> models = ListDir(dir, ".onnx");
  ASSERT_EQ(models.size(), 22u) << "expected the 22 zoo models in " << dir;
  ImportOptions options;
  options.random_weights = true;
  for (const std::string& model : models) {
    StatusOr<Graph> graph = LoadOnnxModel(dir + "/" + model, options);
    ASSERT_TRUE(graph.ok()) << graph.status().ToString();
    ExpectFullyStatic(*graph, model);
    for (const Node& node : graph->nodes) {
      EXPECT_NE(node.op_type, "Shape") << model << " kept shape arithmetic: " << node.name;
    }
  }
}

// Our own shape rules and folding against ONNX's shape inference on the
// same (well-formed) files: every shape ONNX infers statically must agree.
TEST(ModelFiles, ShapesAgreeWithOnnxShapeInference) {
  const std::string dir = kShared + "/zoo";
  const std::vector<std::string> models = ListDir(dir, ".onnx");
  ASSERT_FALSE(models.empty()) << "missing folder " << dir;
  ImportOptions options;
  options.random_weights = true;
  int compared = 0;
  for (const std::string& model : models) {
    StatusOr<Graph> graph = LoadOnnxModel(dir + "/" + model, options);
    ASSERT_TRUE(graph.ok()) << graph.status().ToString();
    StatusOr<std::string> bytes = ReadFileBytes(dir + "/" + model);
    onnx::ModelProto proto;
    ASSERT_TRUE(bytes.ok() && ParseProto(*bytes, &proto));
    proto.mutable_graph()->clear_value_info();
    onnx::ShapeInferenceOptions inference(false, 0, true);
    onnx::shape_inference::InferShapes(proto, onnx::OpSchemaRegistry::Instance(), inference);
    for (const auto& info : proto.graph().value_info()) {
      Shape onnx_shape;
      bool is_static = info.type().tensor_type().has_shape();
      for (const auto& dim : info.type().tensor_type().shape().dim()) {
        is_static = is_static && dim.has_dim_value();
        onnx_shape.push_back(dim.dim_value());
      }
      const Tensor* tensor = graph->FindTensor(info.name());
      if (!is_static || !tensor) continue;
      ++compared;
      EXPECT_EQ(ShapeToString(tensor->shape), ShapeToString(onnx_shape)) << model << ": " << info.name();
    }
  }
  EXPECT_GT(compared, 5000);
}

TEST(ModelFiles, ZooModelWithoutRandomWeightsNamesTheMissingFile) {
  StatusOr<Graph> graph = LoadOnnxModel(kShared + "/zoo/resnet18.onnx");
  ASSERT_FALSE(graph.ok());
  EXPECT_EQ(graph.status().code(), StatusCode::kNotFound);
  EXPECT_NE(graph.status().message().find("weights.absent"), std::string::npos) << graph.status().ToString();
  EXPECT_NE(graph.status().message().find("resnet18.onnx"), std::string::npos) << graph.status().ToString();
}

}  // namespace
}  // namespace glpool
