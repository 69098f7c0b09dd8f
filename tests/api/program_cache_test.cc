// (c) A second process with the program cache compiles no shader: each
// Session runs in a child process of its own (api_tests itself), so nothing
// in memory carries over — only the cache directory.
#include "program_cache_test.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>

#include "api_test_util.h"
#include "app_context.h"
#include "model_builder.h"

namespace glpool::testing_util {

int RunProgramCacheChild(const char* dir) {
  AppEglContext app;
  if (!app.error().empty()) {
    std::fprintf(stderr, "child: %s\n", app.error().c_str());
    return 1;
  }
  StatusOr<Model> model = Model::Load(SharedModelPath("squeezenet1_1"));
  if (!model.ok()) return std::fprintf(stderr, "child: %s\n", model.status().ToString().c_str()), 1;
  SessionOptions options;
  options.program_cache_dir = dir;
  auto session = Session::Create(*model, options);
  if (!session.ok()) return std::fprintf(stderr, "child: %s\n", session.status().ToString().c_str()), 1;
  const TensorInfo input = (*session)->inputs().at(0);
  auto outputs = (*session)->Run({{input.name, RandomFloats(input.shape(), 3)}});
  if (!outputs.ok()) return std::fprintf(stderr, "child: %s\n", outputs.status().ToString().c_str()), 1;
  double sum = 0;
  for (float v : outputs->begin()->second.ToFloats()) sum += v;
  const RuntimeCounters counters = GetRuntimeCounters();
  std::printf("compiles %llu loads %llu sum %.9g\n", static_cast<unsigned long long>(counters.shader_compiles),
              static_cast<unsigned long long>(counters.program_binary_loads), sum);
  return 0;
}

namespace {

struct ChildReport {
  bool ok = false;
  unsigned long long compiles = 0, loads = 0;
  double sum = 0;
};

ChildReport RunChild(const std::string& dir) {
  ChildReport report;
  // Resolved here: inside popen's shell, /proc/self/exe would be the shell.
  const std::string self = std::filesystem::read_symlink("/proc/self/exe").string();
  const std::string command = "'" + self + "' --program-cache-child '" + dir + "'";
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) return report;
  report.ok = std::fscanf(pipe, "compiles %llu loads %llu sum %lf", &report.compiles, &report.loads, &report.sum) == 3;
  report.ok = pclose(pipe) == 0 && report.ok;
  return report;
}

TEST(ProgramCache, ASecondProcessCompilesNoShaderAndCorruptEntriesAreRecompiled) {
  const std::string dir = MakeTempDir() + "/programs";
  const ChildReport cold = RunChild(dir);
  ASSERT_TRUE(cold.ok);
  EXPECT_GT(cold.compiles, 0u);
  EXPECT_EQ(cold.loads, 0u);
  size_t entries = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) entries += entry.path().extension() == ".glpb";
  ASSERT_GT(entries, 0u) << "the driver offers no program binary format, or nothing was stored";

  const ChildReport warm = RunChild(dir);
  ASSERT_TRUE(warm.ok);
  EXPECT_EQ(warm.compiles, 0u) << "the second process compiled shaders despite the cache";
  EXPECT_EQ(warm.loads, entries);
  EXPECT_EQ(warm.sum, cold.sum);

  // Garbage in every entry: ignored, recompiled, same result.
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    std::ofstream(entry.path(), std::ios::binary | std::ios::trunc) << "GLPB garbage";
  }
  const ChildReport recovered = RunChild(dir);
  ASSERT_TRUE(recovered.ok);
  EXPECT_EQ(recovered.compiles, cold.compiles);
  EXPECT_EQ(recovered.loads, 0u);
  EXPECT_EQ(recovered.sum, cold.sum);
}

}  // namespace
}  // namespace glpool::testing_util
