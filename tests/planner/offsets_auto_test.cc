// Offsets AUTO against its greedy members on random interval sets of a few
// thousand tensors (the shape of bench/record_generator.h's random sets:
// mostly short lives, some long, log-uniform sizes), several seeds and
// budgets: its plan must be verified and never larger than the best of
// GREEDY_BY_BREADTH, GREEDY_BY_SIZE and GREEDY_IN_ORDER, even with no budget
// at all (the three always run), and never below the lower bound.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>

#include "planner/lower_bounds.h"
#include "planner/offsets_planner.h"
#include "planner/verifier.h"

namespace glpool {
namespace {

std::vector<ByteRecord> RandomLives(std::mt19937_64& rng, size_t tensors) {
  const TaskId tasks = static_cast<TaskId>(tensors);
  std::uniform_int_distribution<TaskId> start(0, tasks - 1);
  std::uniform_int_distribution<TaskId> short_life(0, 7);
  std::uniform_int_distribution<TaskId> long_life(0, tasks / 10);
  std::uniform_real_distribution<double> log_size(std::log(1024.0), std::log(4.0 * 1024 * 1024));
  std::uniform_real_distribution<double> coin(0.0, 1.0);
  std::vector<ByteRecord> records;
  for (size_t i = 0; i < tensors; ++i) {
    const TaskId first = start(rng);
    const TaskId life = coin(rng) < 0.85 ? short_life(rng) : long_life(rng);
    const uint64_t bytes = (static_cast<uint64_t>(std::exp(log_size(rng))) + 255) / 256 * 256;
    records.push_back({bytes, first, std::min(tasks - 1, first + life)});
  }
  return records;
}

TEST(OffsetsAutoTest, NeverAboveBestGreedy) {
  for (uint64_t seed : {1, 2, 3, 4, 5}) {
    std::mt19937_64 rng(seed);
    const std::vector<ByteRecord> records = RandomLives(rng, 3000);
    uint64_t best_greedy = UINT64_MAX;
    for (OffsetStrategy s : {OffsetStrategy::kGreedyByBreadth, OffsetStrategy::kGreedyBySize,
                             OffsetStrategy::kGreedyInOrder}) {
      StatusOr<OffsetPlan> plan = PlanOffsets(records, s, OffsetOptions{});
      ASSERT_TRUE(plan.ok());
      best_greedy = std::min(best_greedy, plan->assignment.total_size);
    }
    for (double budget : {0.0, 0.02, 0.2}) {
      SCOPED_TRACE("seed " + std::to_string(seed) + ", budget " + std::to_string(budget));
      OffsetOptions options;
      options.budget_seconds = budget;
      StatusOr<OffsetPlan> plan = PlanOffsets(records, OffsetStrategy::kAuto, options);
      ASSERT_TRUE(plan.ok()) << plan.status().ToString();
      EXPECT_TRUE(VerifyOffsets(records, plan->assignment).ok());
      EXPECT_LE(plan->assignment.total_size, best_greedy);
      EXPECT_GE(plan->assignment.total_size, OffsetsLowerBound(records));
    }
  }
}

}  // namespace
}  // namespace glpool
