// Texture-extent strategies: exact plans on hand-made cases, and seeded
// random record sets checked by the verifier and the lower bound.
#include <gtest/gtest.h>

#include <random>

#include "planner/extents_planner.h"
#include "planner/lower_bounds.h"
#include "planner/verifier.h"

namespace glpool {
namespace {

Extent2DRecord R(uint64_t w, uint64_t h, TaskId first, TaskId last) { return {{w, h}, first, last}; }

TEST(ExtentsPlannerTest, ChainReusesCoveringObjectsInOrder) {
  // 8x8 (tasks 0-1), 4x4 (1-2), 8x4 (2-3), 4x8 (3-4).
  const std::vector<Extent2DRecord> chain = {R(8, 8, 0, 1), R(4, 4, 1, 2), R(8, 4, 2, 3), R(4, 8, 3, 4)};
  auto in_order = PlanExtents(chain, ExtentStrategy::kGreedyInOrder);
  ASSERT_TRUE(in_order.ok());
  // 8x4 reuses the 8x8 object (free after task 1); the 4x4 object is free
  // at task 3 but does not cover 4x8, so 4x8 opens a third object.
  EXPECT_EQ(in_order->assignment.object_ids, (std::vector<size_t>{0, 1, 0, 2}));
  EXPECT_EQ(TotalTexels(in_order->assignment), 64u + 16u + 32u);

  auto by_size = PlanExtents(chain, ExtentStrategy::kGreedyBySize);
  ASSERT_TRUE(by_size.ok());
  // Largest first: 8x8 -> object 0; 8x4 (tasks 2-3) is disjoint from 8x8
  // (0-1) and shares object 0; 4x8 overlaps 8x4 at task 3 -> new object 1;
  // 4x4 overlaps 8x8 and 8x4 but not 4x8 -> object 1, which covers it.
  EXPECT_EQ(by_size->assignment.object_ids, (std::vector<size_t>{0, 1, 0, 1}));
  EXPECT_EQ(TotalTexels(by_size->assignment), 64u + 32u);
}

TEST(ExtentsPlannerTest, EqualityReusesOnlyIdenticalExtents) {
  const std::vector<Extent2DRecord> records = {R(8, 8, 0, 0), R(8, 4, 1, 1), R(8, 8, 2, 2)};
  auto plan = PlanExtents(records, ExtentStrategy::kEquality);
  ASSERT_TRUE(plan.ok());
  EXPECT_EQ(plan->assignment.object_ids, (std::vector<size_t>{0, 1, 0}));
}

TEST(ExtentsPlannerTest, NaiveAndHugeTensor) {
  const std::vector<Extent2DRecord> records = {R(16384, 16384, 0, 5), R(2, 2, 1, 1), R(2, 2, 6, 6)};
  auto naive = PlanExtents(records, ExtentStrategy::kNaive);
  ASSERT_TRUE(naive.ok());
  EXPECT_EQ(naive->assignment.object_ids, (std::vector<size_t>{0, 1, 2}));
  auto best = PlanExtents(records, ExtentStrategy::kAuto);
  ASSERT_TRUE(best.ok());
  // The huge texture is free at task 6 and covers the last tensor.
  EXPECT_EQ(TotalTexels(best->assignment), 16384u * 16384u + 4u);
}

TEST(ExtentsPlannerTest, BadRecordsAreErrors) {
  EXPECT_FALSE(PlanExtents(std::vector<Extent2DRecord>{R(4, 4, 3, 1)}, ExtentStrategy::kAuto).ok());
  EXPECT_FALSE(PlanExtents(std::vector<Extent2DRecord>{R(0, 4, 0, 1)}, ExtentStrategy::kAuto).ok());
  EXPECT_FALSE(ParseExtentStrategy("min_cost_flow").ok());
  EXPECT_EQ(*ParseExtentStrategy("GREEDY_BY_SIZE"), ExtentStrategy::kGreedyBySize);
}

template <typename Extent>
Extent RandomExtent(std::mt19937& rng, int distribution);

template <>
Extent2D RandomExtent<Extent2D>(std::mt19937& rng, int distribution) {
  std::uniform_int_distribution<uint64_t> side(1, distribution == 0 ? 4 : 512);
  if (distribution == 2) return {uint64_t{1} << (rng() % 10), uint64_t{1} << (rng() % 10)};
  return {side(rng), side(rng)};
}

template <>
Extent3D RandomExtent<Extent3D>(std::mt19937& rng, int distribution) {
  Extent2D e = RandomExtent<Extent2D>(rng, distribution);
  return {e.w, e.h, 1 + rng() % 8};
}

template <typename Extent>
void CheckRandomSets(int sets) {
  std::mt19937 rng(7);
  for (int set = 0; set < sets; ++set) {
    const int distribution = set % 3;
    const int count = 1 + static_cast<int>(rng() % 24);
    std::vector<UsageRecord<Extent>> records;
    for (int i = 0; i < count; ++i) {
      const TaskId first = static_cast<TaskId>(rng() % 30);
      // One in five lives long, like a U-Net skip connection.
      const TaskId length = rng() % 5 == 0 ? 10 + rng() % 20 : rng() % 4;
      records.push_back({RandomExtent<Extent>(rng, distribution), first, first + length});
    }
    for (ExtentStrategy strategy : AllExtentStrategies()) {
      auto plan = PlanExtents(records, strategy);
      ASSERT_TRUE(plan.ok()) << plan.status().ToString();
      ASSERT_TRUE(VerifySharedObjects(records, plan->assignment).ok())
          << ExtentStrategyName(strategy) << " set " << set;
      ASSERT_GE(TotalTexels(plan->assignment), SharedObjectsLowerBoundTexels(records));
    }
  }
}

TEST(ExtentsPlannerTest, RandomSetsVerify2D) { CheckRandomSets<Extent2D>(10000); }
TEST(ExtentsPlannerTest, RandomSetsVerify3D) { CheckRandomSets<Extent3D>(10000); }

}  // namespace
}  // namespace glpool
