// EXACT against brute force: on small random record sets it must reach the
// optimum and prove it (which also checks every "infeasible" answer of the
// search: a wrong one would lift the proven floor above the optimum), on
// perfect packings it must find the packing, and a spent budget must still
// give a valid plan with an honest floor.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <limits>
#include <random>

#include "offsets_test_util.h"
#include "planner/lower_bounds.h"
#include "planner/offsets_planner.h"
#include "planner/verifier.h"
#include "planner_test_util.h"

namespace glpool {
namespace {

using testing_util::SizeDistribution;

TEST(OffsetsExactTest, MatchesBruteForce) {
  const SizeDistribution distributions[] = {SizeDistribution::kEqual, SizeDistribution::kPowersOfTwo,
                                            SizeDistribution::kWide};
  std::mt19937_64 rng(20240517);
  int above_bound = 0;
  for (int k = 0; k < 2400; ++k) {
    const SizeDistribution d = distributions[k % 3];
    const int tensors = 1 + static_cast<int>(rng() % 7);
    const std::vector<ByteRecord> records = offsets_testing::RandomIntervals(rng, d, tensors);
    const uint64_t alignment = k % 5 == 4 ? uint64_t{1} << (rng() % 8) : 1;
    const uint64_t optimum = offsets_testing::BruteForceArena(records, alignment);
    SCOPED_TRACE("set " + std::to_string(k) + " (" + testing_util::DistributionName(d) +
                 ", alignment " + std::to_string(alignment) + ")");
    OffsetOptions options;
    options.alignment = alignment;
    StatusOr<OffsetPlan> exact = PlanOffsets(records, OffsetStrategy::kExact, options);
    ASSERT_TRUE(exact.ok()) << exact.status().ToString();
    ASSERT_TRUE(VerifyOffsets(records, exact->assignment, alignment).ok());
    EXPECT_EQ(exact->assignment.total_size, optimum);
    EXPECT_TRUE(exact->proven_optimal);
    EXPECT_EQ(exact->proven_lower_bound, optimum);
    if (optimum > OffsetsLowerBound(records)) ++above_bound;
    for (OffsetStrategy s : AllOffsetStrategies()) {
      StatusOr<OffsetPlan> plan = PlanOffsets(records, s, options);
      ASSERT_TRUE(plan.ok());
      EXPECT_GE(plan->assignment.total_size, optimum) << OffsetStrategyName(s);
      if (s == OffsetStrategy::kAuto) {
        EXPECT_EQ(plan->assignment.total_size, optimum);
      }
    }
    if (HasFatalFailure() || HasNonfatalFailure()) return;
  }
  // The search's "infeasible" path (proving the bound unreachable) is used.
  EXPECT_GT(above_bound, 50);
}

TEST(OffsetsExactTest, FindsNonGuillotinePinwheel) {
  // Five tensors that tile a 3-task x 3-byte arena as a pinwheel (no
  // straight cut separates them):
  //   task 0: A [0,1) C [1,3);  task 1: A [0,1) E [1,2) D [2,3);
  //   task 2: B [0,2) D [2,3).
  const std::vector<ByteRecord> records = {{1, 0, 1}, {2, 2, 2}, {2, 0, 0}, {1, 1, 2}, {1, 1, 1}};
  StatusOr<OffsetPlan> plan = PlanOffsets(records, OffsetStrategy::kExact, OffsetOptions{});
  ASSERT_TRUE(plan.ok());
  EXPECT_TRUE(VerifyOffsets(records, plan->assignment).ok());
  EXPECT_EQ(plan->assignment.total_size, 3u);
  EXPECT_TRUE(plan->proven_optimal);
}

// Cuts a tasks x height rectangle into tensors (alternating random cuts), so
// the lower bound `height` is reachable by construction.
void Cut(std::mt19937_64& rng, TaskId t0, TaskId t1, uint64_t h0, uint64_t h1, int depth,
         std::vector<ByteRecord>* out) {
  const bool can_time = t1 - t0 >= 2, can_height = h1 - h0 >= 2;
  if (depth == 0 || (!can_time && !can_height) || rng() % 6 == 0) {
    out->push_back({(h1 - h0) * 1024, t0, t1 - 1});
    return;
  }
  if (can_time && (!can_height || rng() % 2 == 0)) {
    const TaskId m = t0 + 1 + static_cast<TaskId>(rng() % static_cast<uint64_t>(t1 - t0 - 1));
    Cut(rng, t0, m, h0, h1, depth - 1, out);
    Cut(rng, m, t1, h0, h1, depth - 1, out);
  } else {
    const uint64_t m = h0 + 1 + rng() % (h1 - h0 - 1);
    Cut(rng, t0, t1, h0, m, depth - 1, out);
    Cut(rng, t0, t1, m, h1, depth - 1, out);
  }
}

TEST(OffsetsExactTest, FindsPerfectPackings) {
  std::mt19937_64 rng(7);
  for (int k = 0; k < 300; ++k) {
    std::vector<ByteRecord> records;
    const uint64_t height = 8 + rng() % 40;
    Cut(rng, 0, 4 + static_cast<TaskId>(rng() % 12), 0, height, 6, &records);
    std::shuffle(records.begin(), records.end(), rng);
    StatusOr<OffsetPlan> plan = PlanOffsets(records, OffsetStrategy::kExact, OffsetOptions{});
    ASSERT_TRUE(plan.ok());
    ASSERT_TRUE(VerifyOffsets(records, plan->assignment).ok());
    EXPECT_EQ(plan->assignment.total_size, height * 1024) << "set " << k;
    EXPECT_TRUE(plan->proven_optimal);
  }
}

// Larger perfect packings, cut as MiniMalloc's instances are made (a full
// arena split into tensors, then shuffled), with tens of tensors and raw
// times: the floor is the answer, and EXACT must find it and so prove it
// optimal, within a CPU budget far above what it needs.
TEST(OffsetsExactTest, ProvesLargerCutPackingsOptimal) {
  std::mt19937_64 rng(1048576);
  size_t most = 0;
  for (int k = 0; k < 40; ++k) {
    std::vector<ByteRecord> records;
    const uint64_t height = 48 + rng() % 48;
    Cut(rng, 0, 16 + static_cast<TaskId>(rng() % 32), 0, height, 9, &records);
    for (ByteRecord& r : records) {
      r.first_task *= 1000;  // raw times, as in the published CSV files
      r.last_task = r.last_task * 1000 + 999;
    }
    std::shuffle(records.begin(), records.end(), rng);
    most = std::max(most, records.size());
    OffsetOptions options;
    options.budget_seconds = 10.0;
    StatusOr<OffsetPlan> plan = PlanOffsets(records, OffsetStrategy::kExact, options);
    ASSERT_TRUE(plan.ok());
    ASSERT_TRUE(VerifyOffsets(records, plan->assignment).ok());
    EXPECT_EQ(plan->assignment.total_size, height * 1024) << "set " << k;
    EXPECT_TRUE(plan->proven_optimal) << "set " << k;
  }
  EXPECT_GE(most, 60u);
  std::printf("[ offsets ] largest cut packing: %zu tensors\n", most);
}

// A budget no search reaches (infinity, or AUTO handing on what is left of
// its own such budget) means "never": the deadline saturates instead of
// overflowing the clock, and the search ends by proving the optimum.
TEST(OffsetsExactTest, UnboundedBudgetEndsByProof) {
  const std::vector<ByteRecord> records = {{3, 0, 2}, {2, 1, 3}, {2, 2, 4}, {1, 0, 4}, {4, 3, 5}};
  for (double budget : {std::numeric_limits<double>::infinity(), 1e12}) {
    OffsetOptions options;
    options.budget_seconds = budget;
    for (OffsetStrategy s : {OffsetStrategy::kExact, OffsetStrategy::kAuto}) {
      StatusOr<OffsetPlan> plan = PlanOffsets(records, s, options);
      ASSERT_TRUE(plan.ok());
      EXPECT_TRUE(VerifyOffsets(records, plan->assignment).ok());
      EXPECT_TRUE(plan->proven_optimal) << OffsetStrategyName(s);
    }
  }
}

TEST(OffsetsExactTest, SpentBudgetStillGivesValidPlanAndHonestFloor) {
  std::mt19937_64 rng(99);
  OffsetOptions options;
  options.budget_seconds = 0.0;
  for (int k = 0; k < 200; ++k) {
    const std::vector<ByteRecord> records =
        offsets_testing::RandomIntervals(rng, SizeDistribution::kWide, 1 + static_cast<int>(rng() % 7));
    const uint64_t optimum = offsets_testing::BruteForceArena(records, 1);
    for (OffsetStrategy s : {OffsetStrategy::kExact, OffsetStrategy::kAuto}) {
      StatusOr<OffsetPlan> plan = PlanOffsets(records, s, options);
      ASSERT_TRUE(plan.ok());
      EXPECT_TRUE(VerifyOffsets(records, plan->assignment).ok());
      EXPECT_GE(plan->proven_lower_bound, plan->lower_bound);
      EXPECT_LE(plan->proven_lower_bound, optimum);  // a floor, never above the optimum
      EXPECT_EQ(plan->proven_optimal, plan->assignment.total_size == plan->proven_lower_bound);
    }
  }
}

TEST(OffsetsExactTest, HugeLongLivedInputStaysCheap) {
  // 6000 tensors, each live over 3000 tasks: 18M (tensor, section) pairs,
  // past what EXACT searches (64 MiB of lists). It must answer with its
  // incumbent and the floor instead of searching: with no deadline at all
  // (a budget of 1e9 s), a search here would not come back, and ctest's
  // timeout would fail the test — no wall-clock figure is asserted.
  std::vector<ByteRecord> records;
  for (TaskId i = 0; i < 6000; ++i) records.push_back({64 + static_cast<uint64_t>(i % 7) * 64, i, i + 3000});
  OffsetOptions options;
  options.budget_seconds = 1e9;
  StatusOr<OffsetPlan> plan = PlanOffsets(records, OffsetStrategy::kExact, options);
  ASSERT_TRUE(plan.ok());
  EXPECT_TRUE(VerifyOffsets(records, plan->assignment).ok());
  EXPECT_LE(plan->lower_bound, plan->proven_lower_bound);
  EXPECT_LE(plan->proven_lower_bound, plan->assignment.total_size);
}

}  // namespace
}  // namespace glpool
