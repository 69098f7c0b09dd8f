// Property tests: for every offset strategy, 10,000 seeded random record sets
// in several shapes (a sequence of ops with branches, arbitrary overlaps, a
// U-Net with long-lived skips) and size distributions (equal, powers of two,
// 1 byte to 1e9), some with alignment. Every plan passes the verifier and no
// arena is below the lower bound.
#include <gtest/gtest.h>

#include <random>

#include "offsets_test_util.h"
#include "planner/lower_bounds.h"
#include "planner/offsets_planner.h"
#include "planner/verifier.h"
#include "planner_test_util.h"

namespace glpool {
namespace {

using testing_util::SizeDistribution;

constexpr int kSetsPerStrategy = 10000;

std::vector<ByteRecord> RandomSet(std::mt19937_64& rng, int k) {
  const SizeDistribution sizes[] = {SizeDistribution::kEqual, SizeDistribution::kPowersOfTwo,
                                    SizeDistribution::kWide};
  const SizeDistribution d = sizes[k % 3];
  switch ((k / 3) % 3) {
    case 0: return testing_util::RandomRecords(rng, d, 1 + static_cast<int>(rng() % 40));
    case 1: return offsets_testing::RandomIntervals(rng, d, 1 + static_cast<int>(rng() % 24));
    default: return testing_util::RandomRecords(rng, SizeDistribution::kUNet, 0);
  }
}

class OffsetsPropertyTest : public ::testing::TestWithParam<OffsetStrategy> {};

TEST_P(OffsetsPropertyTest, ValidAndNeverBelowTheBound) {
  const OffsetStrategy strategy = GetParam();
  std::mt19937_64 rng(1234 + static_cast<int>(strategy));
  OffsetOptions options;
  options.budget_seconds = 0.5;  // EXACT and AUTO: small sets, never near it
  for (int k = 0; k < kSetsPerStrategy; ++k) {
    const std::vector<ByteRecord> records = RandomSet(rng, k);
    options.alignment = k % 4 == 3 ? uint64_t{1} << (rng() % 13) : 1;
    StatusOr<OffsetPlan> plan = PlanOffsets(records, strategy, options);
    ASSERT_TRUE(plan.ok()) << "set " << k << ": " << plan.status().ToString();
    const Status valid = VerifyOffsets(records, plan->assignment, options.alignment);
    ASSERT_TRUE(valid.ok()) << "set " << k << ": " << valid.ToString();
    const uint64_t bound = OffsetsLowerBound(records);
    ASSERT_EQ(plan->lower_bound, bound);
    ASSERT_GE(plan->assignment.total_size, bound) << "set " << k;
    ASSERT_GE(plan->proven_lower_bound, bound);
    ASSERT_LE(plan->proven_lower_bound, plan->assignment.total_size);
    ASSERT_EQ(plan->proven_optimal, plan->assignment.total_size == plan->proven_lower_bound);
    if (strategy != OffsetStrategy::kAuto) {
      ASSERT_EQ(plan->chosen, strategy);
    }
  }
}

INSTANTIATE_TEST_SUITE_P(AllStrategies, OffsetsPropertyTest, ::testing::ValuesIn(AllOffsetStrategies()),
                         [](const ::testing::TestParamInfo<OffsetStrategy>& info) {
                           return std::string(OffsetStrategyName(info.param));
                         });

// AUTO keeps the smallest arena of the portfolio: never larger than any
// single strategy on the same set.
TEST(OffsetsAutoTest, NeverWorseThanAnyStrategy) {
  std::mt19937_64 rng(42);
  OffsetOptions options;
  options.budget_seconds = 0.5;
  for (int k = 0; k < 3000; ++k) {
    const std::vector<ByteRecord> records = RandomSet(rng, k);
    StatusOr<OffsetPlan> best = PlanOffsets(records, OffsetStrategy::kAuto, options);
    ASSERT_TRUE(best.ok());
    for (OffsetStrategy s : AllOffsetStrategies()) {
      StatusOr<OffsetPlan> plan = PlanOffsets(records, s, options);
      ASSERT_TRUE(plan.ok());
      ASSERT_LE(best->assignment.total_size, plan->assignment.total_size)
          << "set " << k << " vs " << OffsetStrategyName(s);
    }
  }
}

}  // namespace
}  // namespace glpool

namespace glpool {
namespace {

// AUTO runs both best-fit greedies whatever its budget, so on any set its
// arena is no larger than the better of them — checked on random sets of
// 300 to 3000 intervals from several seeds, with a budget too small for
// anything else to run.
TEST(OffsetsAutoProperty, NeverAboveTheBetterGreedy) {
  for (uint64_t seed = 1; seed <= 12; ++seed) {
    std::mt19937_64 rng(seed);
    const std::vector<ByteRecord> records =
        offsets_testing::RandomIntervals(rng, SizeDistribution::kWide, 300 + static_cast<int>(rng() % 2700));
    OffsetOptions options;
    options.budget_seconds = 1e-6;
    auto by_size = PlanOffsets(records, OffsetStrategy::kGreedyBySize, options);
    auto by_breadth = PlanOffsets(records, OffsetStrategy::kGreedyByBreadth, options);
    auto automatic = PlanOffsets(records, OffsetStrategy::kAuto, options);
    ASSERT_TRUE(by_size.ok() && by_breadth.ok() && automatic.ok()) << "seed " << seed;
    EXPECT_LE(automatic->assignment.total_size,
              std::min(by_size->assignment.total_size, by_breadth->assignment.total_size))
        << "seed " << seed << ", " << records.size() << " intervals";
  }
}

}  // namespace
}  // namespace glpool
