// Every model among the ONNX project's backend test cases (Debian's
// libonnx-testdata) either imports with static shapes or is refused with a
// reason; none crashes or is reported as corrupt.
#include <gtest/gtest.h>

#include <dirent.h>

#include <algorithm>
#include <iostream>
#include <map>
#include <string>
#include <vector>

#include "gpu_backend/import/file_util.h"
#include "gpu_backend/import/onnx_import.h"

namespace glpool {
namespace {

const std::string kTestData = "/usr/share/libonnx-testdata/data";

std::vector<std::string> SubDirs(const std::string& dir) {
  std::vector<std::string> names;
  DIR* d = opendir(dir.c_str());
  if (!d) return names;
  while (dirent* entry = readdir(d)) {
    const std::string name = entry->d_name;
    if (name != "." && name != "..") names.push_back(name);
  }
  closedir(d);
  std::sort(names.begin(), names.end());
  return names;
}

// Our shape rules must agree with the output shapes the test cases declare.
void ExpectDeclaredOutputShapes(const std::string& path, const Graph& graph) {
  StatusOr<std::string> bytes = ReadFileBytes(path);
  onnx::ModelProto model;
  ASSERT_TRUE(bytes.ok() && ParseProto(*bytes, &model)) << path;
  for (const auto& output : model.graph().output()) {
    if (!output.type().has_tensor_type() || !output.type().tensor_type().has_shape()) continue;
    Shape declared;
    bool is_static = true;
    for (const auto& dim : output.type().tensor_type().shape().dim()) {
      is_static = is_static && dim.has_dim_value();
      declared.push_back(dim.dim_value());
    }
    if (!is_static) continue;
    const Tensor* tensor = graph.FindTensor(output.name());
    ASSERT_NE(tensor, nullptr) << path;
    EXPECT_EQ(ShapeToString(tensor->shape), ShapeToString(declared)) << path << ": output " << output.name();
  }
}

TEST(OnnxTestData, EveryCaseImportsOrIsRefusedWithAReason) {
  const std::vector<std::string> suites = {"node", "pytorch-converted", "pytorch-operator", "simple"};
  ASSERT_FALSE(SubDirs(kTestData + "/node").empty())
      << kTestData << " is empty: install libonnx-testdata (scripts/install-deps.sh does)";
  int imported = 0;
  std::map<std::string, int> refused;
  for (const std::string& suite : suites) {
    for (const std::string& name : SubDirs(kTestData + "/" + suite)) {
      const std::string path = kTestData + "/" + suite + "/" + name + "/model.onnx";
      StatusOr<Graph> graph = LoadOnnxModel(path);
      if (graph.ok()) {
        ++imported;
        ExpectDeclaredOutputShapes(path, *graph);
        continue;
      }
      const Status& status = graph.status();
      ++refused[StatusCodeName(status.code())];
      EXPECT_TRUE(status.code() == StatusCode::kUnsupported || status.code() == StatusCode::kInvalidArgument)
          << status.ToString();
      std::cout << "  " << suite << "/" << name << ": " << status.ToString() << "\n";
    }
  }
  std::cout << imported << " imported";
  for (const auto& [code, count] : refused) std::cout << ", " << count << " " << code;
  std::cout << "\n";
  EXPECT_GT(imported, 700);
}

}  // namespace
}  // namespace glpool
