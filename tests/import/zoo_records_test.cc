// The unfused compile of every zoo model pools exactly the tensors the
// fixed records in ../shared/zoo/records/*.json list (same names, same fp32
// dense sizes), and every zoo model compiles fused and unfused, fp32 and
// fp16, into records whose lifetimes are well formed.
#include <gtest/gtest.h>

#include <dirent.h>

#include <algorithm>
#include <fstream>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>

#include "gpu_backend/compile/model_records.h"

namespace glpool {
namespace {

const std::string kZoo = std::string(GLPOOL_SHARED_DIR) + "/zoo";

std::vector<std::string> Files(const std::string& dir, const std::string& suffix) {
  std::vector<std::string> names;
  if (DIR* d = opendir(dir.c_str())) {
    while (dirent* entry = readdir(d)) {
      const std::string name = entry->d_name;
      if (name.size() > suffix.size() && name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0) {
        names.push_back(name.substr(0, name.size() - suffix.size()));
      }
    }
    closedir(d);
  }
  std::sort(names.begin(), names.end());
  return names;
}

uint64_t MaxLive(const std::vector<ByteRecord>& records, TaskId tasks) {
  uint64_t best = 0;
  for (TaskId t = 0; t < tasks; ++t) {
    uint64_t live = 0;
    for (const ByteRecord& r : records) live += (r.first_task <= t && t <= r.last_task) ? r.size : 0;
    best = std::max(best, live);
  }
  return best;
}

TEST(ZooRecords, UnfusedCompileMatchesTheSharedRecords) {
  const std::vector<std::string> models = Files(kZoo + "/records", ".json");
  ASSERT_FALSE(models.empty()) << "missing folder " << kZoo << "/records";
  ModelRecordsOptions options;
  options.import.random_weights = true;
  options.fuse = false;
  for (const std::string& model : models) {
    std::ifstream file(kZoo + "/records/" + model + ".json");
    const nlohmann::json json = nlohmann::json::parse(file, nullptr, false);
    ASSERT_FALSE(json.is_discarded()) << model;
    std::map<std::string, uint64_t> expected;
    for (const auto& record : json["records"]) expected[record["name"].get<std::string>()] = record["size"].get<uint64_t>();
    StatusOr<ModelRecords> records = BuildModelRecords(kZoo + "/" + model + ".onnx", options);
    ASSERT_TRUE(records.ok()) << records.status().ToString();
    std::map<std::string, uint64_t> actual;
    for (const PooledTensor& tensor : records->compiled.pooled) {
      actual[tensor.name] = static_cast<uint64_t>(ElementCount(tensor.shape)) * 4;
    }
    EXPECT_EQ(actual, expected) << model;
  }
}

TEST(ZooRecords, EveryZooModelCompilesFusedAndUnfused) {
  const std::vector<std::string> models = Files(kZoo, ".onnx");
  ASSERT_EQ(models.size(), 22u) << "expected the 22 zoo models in " << kZoo;
  for (const std::string& model : models) {
    std::cout << model;
    ImportOptions import;
    import.random_weights = true;
    StatusOr<Graph> graph = LoadOnnxModel(kZoo + "/" + model + ".onnx", import);
    ASSERT_TRUE(graph.ok()) << graph.status().ToString();
    for (bool fuse : {false, true}) {
      for (Precision precision : {Precision::kFp32, Precision::kFp16}) {
        ModelRecordsOptions options;
        options.fuse = fuse;
        options.precision = precision;
        StatusOr<ModelRecords> records = BuildModelRecords(*graph, model, options);
        ASSERT_TRUE(records.ok()) << records.status().ToString();
        const RecordSet& set = records->buffers;
        ASSERT_EQ(set.names.size(), set.records.size());
        ASSERT_EQ(records->textures_2d.size(), set.records.size());
        ASSERT_EQ(records->textures_3d.size(), set.records.size());
        uint64_t naive = 0;
        for (const ByteRecord& r : set.records) {
          EXPECT_LE(r.first_task, r.last_task) << model;
          EXPECT_LT(r.last_task, set.tasks) << model;
          EXPECT_GT(r.size, 0u) << model;
          naive += r.size;
        }
        if (precision == Precision::kFp32) {
          std::cout << (fuse ? "  fused: " : "  unfused: ") << set.tasks << " tasks, " << set.records.size()
                    << " tensors, naive " << naive / 1e6 << " MB, max live " << MaxLive(set.records, set.tasks) / 1e6
                    << " MB";
        }
      }
    }
    std::cout << "\n";
  }
}

}  // namespace
}  // namespace glpool
