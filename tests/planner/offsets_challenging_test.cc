// The 11 hard offset-packing instances published with MiniMalloc
// (../shared/zoo/challenging), read from the CSV files as published (raw
// times; the JSON copies compress them): each fits an arena of 1,048,576
// bytes (C, D and J fit in less); EXACT, with a 10 s CPU budget each (a
// sanitizer build is several times slower; an optimized one takes at most
// 1 s, bench/reports/planner_scale.md), must fit each in 1,048,576 bytes and
// prove it optimal where the lower bound is 1,048,576 (TFLite's offset
// planner needs 1.26-1.41x). A missing file is a failure, not a skip.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>

#include "planner/offsets_planner.h"
#include "planner/records_csv.h"
#include "planner/verifier.h"

namespace glpool {
namespace {

constexpr uint64_t kPublishedArena = 1048576;

TEST(OffsetsChallengingTest, ExactFitsPublishedArena) {
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
    EXPECT_LE(arena, kPublishedArena);
    EXPECT_LE(plan->proven_lower_bound, arena);
    if (plan->lower_bound == kPublishedArena) {
      EXPECT_TRUE(plan->proven_optimal);
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
