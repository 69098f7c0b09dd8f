// Planning time for every zoo records file and every strategy.
//   planner_bench [--benchmark_filter=objects/auto/...]
// Names: objects/<strategy>/<model> and offsets/<strategy>/<model>.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <filesystem>
#include <iostream>

#include "planner/objects_planner.h"
#include "planner/offsets_planner.h"
#include "planner/records_json.h"

namespace glpool {
namespace {

std::vector<RecordSet> LoadZoo() {
  std::vector<std::string> files;
  std::error_code error;
  for (const auto& e : std::filesystem::directory_iterator(GLPOOL_ZOO_RECORDS_DIR, error)) {
    if (e.path().extension() == ".json") files.push_back(e.path().string());
  }
  std::sort(files.begin(), files.end());
  std::vector<RecordSet> sets;
  for (const std::string& f : files) {
    StatusOr<RecordSet> set = ReadRecordsJson(f);
    if (!set.ok()) {
      std::cerr << set.status().ToString() << "\n";
      continue;
    }
    sets.push_back(std::move(set).value());
  }
  return sets;
}

}  // namespace
}  // namespace glpool

int main(int argc, char** argv) {
  using namespace glpool;
  static const std::vector<RecordSet> zoo = LoadZoo();
  if (zoo.empty()) {
    std::cerr << "planner_bench: no records under " << GLPOOL_ZOO_RECORDS_DIR << "\n";
    return 1;
  }
  for (const RecordSet& set : zoo) {
    for (ObjectStrategy s : AllObjectStrategies()) {
      const std::string name = std::string("objects/") + ObjectStrategyName(s) + "/" + set.model;
      benchmark::RegisterBenchmark(name.c_str(), [&set, s](benchmark::State& state) {
        uint64_t total = 0;
        for (auto _ : state) {
          StatusOr<ObjectsPlan> plan = PlanSharedObjects(set.records, s);
          total = plan.ok() ? TotalBytes(plan->assignment) : 0;
          benchmark::DoNotOptimize(total);
        }
        state.counters["MB"] = total / 1e6;
      })->Unit(benchmark::kMillisecond);
    }
    for (OffsetStrategy s : AllOffsetStrategies()) {
      const std::string name = std::string("offsets/") + OffsetStrategyName(s) + "/" + set.model;
      benchmark::RegisterBenchmark(name.c_str(), [&set, s](benchmark::State& state) {
        OffsetOptions options;
        options.budget_seconds = 1.0;
        uint64_t total = 0;
        for (auto _ : state) {
          StatusOr<OffsetPlan> plan = PlanOffsets(set.records, s, options);
          total = plan.ok() ? plan->assignment.total_size : 0;
          benchmark::DoNotOptimize(total);
        }
        state.counters["MB"] = total / 1e6;
      })->Unit(benchmark::kMillisecond);
    }
  }
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
