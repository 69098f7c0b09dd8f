// Randomly damaged models never crash the importer: every one either
// imports or fails with a Status.
#include <gtest/gtest.h>

#include <fstream>
#include <random>

#include "gpu_backend/import/onnx_import.h"
#include "model_builder.h"

namespace glpool {
namespace {

using testing_util::ModelBuilder;

std::string ReadAll(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

TEST(ImportFuzz, MutatedModelsFailCleanly) {
  const std::string dir = testing_util::MakeTempDir();
  ModelBuilder builder;
  builder.Input("X", {1, 3, 8, 8})
      .FloatInit("W", {4, 3, 3, 3}, std::vector<float>(108, 0.1f))
      .Int64Init("zero", {}, {0})
      .Int64Init("axes", {1}, {0})
      .Int64Init("minus_one", {1}, {-1})
      .Node("Conv", {"X", "W"}, {"C"})
      .AttrInts("pads", {1, 1, 1, 1})
      .Node("Relu", {"C"}, {"R"})
      .Node("Shape", {"R"}, {"shape"})
      .Node("Gather", {"shape", "zero"}, {"batch"})
      .Node("Unsqueeze", {"batch", "axes"}, {"batch_1d"})
      .Node("Concat", {"batch_1d", "minus_one"}, {"target"})
      .AttrInt("axis", 0)
      .Node("Reshape", {"R", "target"}, {"Y"})
      .Output("Y");
  const std::string original = ReadAll(builder.Save(dir, "original.onnx"));
  std::mt19937 random(1234);
  int imported = 0;
  for (int trial = 0; trial < 3000; ++trial) {
    std::string bytes = original;
    const int edits = 1 + static_cast<int>(random() % 4);
    for (int e = 0; e < edits; ++e) {
      const size_t at = random() % bytes.size();
      switch (random() % 3) {
        case 0: bytes[at] = static_cast<char>(random()); break;
        case 1: bytes[at] = static_cast<char>(bytes[at] ^ (1 << (random() % 8))); break;
        default: bytes.resize(at + 1); break;
      }
    }
    const std::string path = dir + "/mutated.onnx";
    std::ofstream(path, std::ios::binary).write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    ImportOptions options;
    options.random_weights = (trial % 2) == 0;
    StatusOr<Graph> graph = LoadOnnxModel(path, options);
    if (graph.ok()) {
      ++imported;
      for (const auto& [name, tensor] : graph->tensors) {
        for (int64_t d : tensor.shape) ASSERT_GE(d, 0) << name;
      }
    } else {
      EXPECT_FALSE(graph.status().message().empty());
      EXPECT_NE(graph.status().code(), StatusCode::kInternal) << graph.status().ToString();
    }
  }
  std::cout << imported << " of 3000 mutated models still imported\n";
}

}  // namespace
}  // namespace glpool
