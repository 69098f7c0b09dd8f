// The bar on the 20 zoo record sets (../shared/zoo/records): every
// shared-objects plan verified; AUTO no larger than any strategy nor than
// TFLite's best figure; geometric-mean gap to the lower bound <= 1%.
// A missing zoo is a failure, not a skip: the bar must be checked.
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <map>

#include "planner/lower_bounds.h"
#include "planner/objects_planner.h"
#include "planner/records_json.h"
#include "planner/verifier.h"
#include "planner_test_util.h"

namespace glpool {
namespace {

// TFLite's GPU-delegate planner, best of all its strategies, MB = 1e6 bytes,
// two decimals (the planner issue). Elsewhere it meets the lower bound
// (regnet_y_400mf within 0.01%).
const std::map<std::string, double>& TfliteMb() {
  static const std::map<std::string, double> figures = {
      {"convnext_tiny", 16.86},     {"deeplabv3_resnet50", 116.81},
      {"googlenet", 7.83},          {"inception_v3", 12.79},
      {"mnasnet1_0", 5.42},         {"mobilenet_v2", 10.04},
      {"shufflenet_v2_x1_0", 2.68}, {"u2net", 139.19},
      {"efficientnet_b0", 14.84},   {"mobilenet_v3_large", 7.38},
      {"mobilenet_v3_small", 2.68}};
  return figures;
}

TEST(ObjectsZooTest, AutoBeatsEveryStrategyAndTflite) {
  const std::string dir = GLPOOL_ZOO_RECORDS_DIR;
  const std::vector<std::string> files = testing_util::JsonFiles(dir);
  ASSERT_EQ(files.size(), 20u) << "the zoo records are missing or incomplete at " << dir
                               << " (expected 20 *.json files)";
  double log_gap = 0.0, slowest_ms = 0.0;
  std::string slowest;
  for (const std::string& file : files) {
    StatusOr<RecordSet> set = ReadRecordsJson(file);
    ASSERT_TRUE(set.ok()) << set.status().ToString();
    SCOPED_TRACE(set->model);
    const uint64_t bound = SharedObjectsLowerBound(set->records);
    std::map<ObjectStrategy, uint64_t> totals;
    for (ObjectStrategy s : AllObjectStrategies()) {
      const auto start = std::chrono::steady_clock::now();
      // AUTO's node-bounded searches finish well inside its default budget
      // on an idle machine, but not always in a sanitizer build or on a busy
      // one: the comparison is of plans, so the budget is set wide enough
      // that it never cuts a search (timings go to the log, not to asserts).
      ObjectOptions options;
      if (s == ObjectStrategy::kAuto) options.budget_seconds = 5.0;
      StatusOr<ObjectsPlan> plan = PlanSharedObjects(set->records, s, options);
      const double ms =
          std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
              .count();
      ASSERT_TRUE(plan.ok()) << plan.status().ToString();
      const Status valid = VerifySharedObjects(set->records, plan->assignment, &set->names);
      ASSERT_TRUE(valid.ok()) << ObjectStrategyName(s) << ": " << valid.ToString();
      totals[s] = TotalBytes(plan->assignment);
      EXPECT_GE(totals[s], bound) << ObjectStrategyName(s);
      if (s == ObjectStrategy::kAuto && ms > slowest_ms) {
        slowest_ms = ms;
        slowest = set->model;
      }
    }
    const uint64_t auto_total = totals[ObjectStrategy::kAuto];
    for (const auto& [s, total] : totals) {
      EXPECT_LE(auto_total, total) << "AUTO vs " << ObjectStrategyName(s);
    }
    auto tflite = TfliteMb().find(set->model);
    if (tflite != TfliteMb().end()) {
      // The figures are rounded to 0.01 MB: compare AUTO rounded the same way.
      EXPECT_LE(std::round(auto_total / 1e4), std::round(tflite->second * 100))
          << "AUTO " << auto_total / 1e6 << " MB vs TFLite " << tflite->second << " MB";
    } else {
      EXPECT_LE(static_cast<double>(auto_total), bound * 1.0001)
          << "TFLite meets the lower bound here";
    }
    log_gap += std::log(static_cast<double>(auto_total) / bound);
    std::printf(
        "%-30s AUTO %9.4f MB  bound %9.4f MB  gap %6.3f%%  TFLite %s\n", set->model.c_str(),
        auto_total / 1e6, bound / 1e6, 100.0 * (static_cast<double>(auto_total) / bound - 1.0),
        tflite == TfliteMb().end() ? "= bound"
                                   : (std::to_string(tflite->second)
                                          .substr(0, std::to_string(tflite->second).find(".") + 3))
                                         .c_str());
  }
  const double geomean_gap = std::exp(log_gap / files.size()) - 1.0;
  std::printf("geometric-mean gap %.3f%% (TFLite: 1.45%%); slowest AUTO %.1f ms (%s)\n",
              100.0 * geomean_gap, slowest_ms, slowest.c_str());
  EXPECT_LE(geomean_gap, 0.01);
  // Speed is reported (above, and by bench/planner_report), not asserted:
  // AUTO's work is bounded by its node counts and its budget.
}

}  // namespace
}  // namespace glpool
