// The offsets bar on the 20 zoo record sets (../shared/zoo/records):
// every plan of every strategy verified; AUTO at the offsets lower bound on
// all 20 (it is reachable on each) and under 50 ms per file.
// A missing zoo is a failure, not a skip: the bar must be checked.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>

#include "planner/lower_bounds.h"
#include "planner/offsets_planner.h"
#include "planner/records_json.h"
#include "planner/verifier.h"
#include "planner_test_util.h"

namespace glpool {
namespace {

TEST(OffsetsZooTest, AutoAtTheLowerBoundEverywhere) {
  const std::string dir = GLPOOL_ZOO_RECORDS_DIR;
  const std::vector<std::string> files = testing_util::JsonFiles(dir);
  ASSERT_EQ(files.size(), 20u) << "the zoo records are missing or incomplete at " << dir
                               << " (expected 20 *.json files)";
  double slowest_ms = 0.0;
  std::string slowest;
  for (const std::string& file : files) {
    StatusOr<RecordSet> set = ReadRecordsJson(file);
    ASSERT_TRUE(set.ok()) << set.status().ToString();
    SCOPED_TRACE(set->model);
    const uint64_t bound = OffsetsLowerBound(set->records);
    for (OffsetStrategy s : AllOffsetStrategies()) {
      StatusOr<OffsetPlan> plan = PlanOffsets(set->records, s, OffsetOptions{});
      ASSERT_TRUE(plan.ok()) << plan.status().ToString();
      const Status valid = VerifyOffsets(set->records, plan->assignment, 1, &set->names);
      ASSERT_TRUE(valid.ok()) << OffsetStrategyName(s) << ": " << valid.ToString();
      EXPECT_GE(plan->assignment.total_size, bound) << OffsetStrategyName(s);
    }
    // The time is printed, not asserted (bench/planner_report measures it).
    StatusOr<OffsetPlan> p = PlanOffsets(set->records, OffsetStrategy::kAuto, OffsetOptions{});
    ASSERT_TRUE(p.ok());
    const OffsetPlan plan = *p;
    const double best_ms = plan.ms;
    EXPECT_EQ(plan.assignment.total_size, bound);
    EXPECT_TRUE(plan.proven_optimal);
    std::printf("[ offsets ] %-30s auto %12llu  lower bound %12llu  %-15s %7.3f ms\n",
                set->model.c_str(), static_cast<unsigned long long>(plan.assignment.total_size),
                static_cast<unsigned long long>(bound), OffsetStrategyName(plan.chosen), best_ms);
    if (best_ms > slowest_ms) {
      slowest_ms = best_ms;
      slowest = set->model;
    }
  }
  std::printf("[ offsets ] slowest AUTO: %s, %.3f ms\n", slowest.c_str(), slowest_ms);
}

}  // namespace
}  // namespace glpool
