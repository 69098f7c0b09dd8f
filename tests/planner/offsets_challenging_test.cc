// The 11 hard offset-packing instances published with MiniMalloc
// (../shared/zoo/challenging), read from the CSV files as published (raw
// times; the JSON copies compress them): each fits an arena of 1,048,576
// bytes (C, D and J fit in less). EXACT, with a 10 s CPU budget each, must
// come within 5% of that, with a valid proven floor (TFLite's offset
// planner needs 1.26-1.41x). The bound is loose on purpose: how far a
// search gets in its budget depends on the machine, and a sanitizer build
// on a busy one is 10-20x slower (E ended at +3.7% there). What an
// optimized build reaches in 1 s -- every instance at 1,048,576 or less,
// nine proven optimal -- is measured in bench/reports/planner_scale.md. A
// missing file is a failure, not a skip.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>

#include "planner/offsets_planner.h"
#include "planner/records_csv.h"
#include "planner/verifier.h"

namespace glpool {
namespace {

constexpr uint64_t kPublishedArena = 1048576;

TEST(OffsetsChallengingTest, ExactWithinFivePercentOfThePublishedArena) {
  const std::string dir = GLPOOL_ZOO_CHALLENGING_DIR;
  std::vector<std::string> files;
  for (char c = 'A'; c <= 'K'; ++c) files.push_back(dir + "/minimalloc_" + c + ".csv");
  OffsetOptions options;
  options.budget_seconds = 10.0;
  for (const std::string& file : files) {
    StatusOr<RecordSet> set = ReadRecordsCsv(file);
    ASSERT_TRUE(set.ok()) << "the challenging instances are missing or incomplete at " << dir << ": "
                          << set.status().ToString();
    SCOPED_TRACE(set->model);
    StatusOr<OffsetPlan> plan = PlanOffsets(set->records, OffsetStrategy::kExact, options);
    ASSERT_TRUE(plan.ok()) << plan.status().ToString();
    const Status valid = VerifyOffsets(set->records, plan->assignment, 1, &set->names);
    ASSERT_TRUE(valid.ok()) << valid.ToString();
    const uint64_t arena = plan->assignment.total_size;
    EXPECT_LE(arena, kPublishedArena + kPublishedArena / 20);
    EXPECT_LE(plan->proven_lower_bound, arena);
    EXPECT_GE(plan->proven_lower_bound, plan->lower_bound);
    if (plan->proven_optimal) {
      EXPECT_EQ(plan->proven_lower_bound, arena);
    }
    std::printf("[ offsets ] %-14s exact %8llu (%+.2f%% vs 1048576)  lower bound %8llu  proven >= %8llu"
                "  gap %6llu  %s  %6.2f s\n",
                set->model.c_str(), static_cast<unsigned long long>(arena),
                100.0 * (static_cast<double>(arena) / kPublishedArena - 1.0),
                static_cast<unsigned long long>(plan->lower_bound),
                static_cast<unsigned long long>(plan->proven_lower_bound),
                static_cast<unsigned long long>(arena - plan->proven_lower_bound),
                plan->proven_optimal ? "optimal" : "       ", plan->ms / 1000.0);
  }
}

}  // namespace
}  // namespace glpool
