// Shared-objects strategies on small hand-made record sets, with the plans
// worked out by hand from each strategy's rules (see the comments), in the
// style of TFLite's memory_management tests.
#include "planner/objects_planner.h"

#include <gtest/gtest.h>

#include "planner/lower_bounds.h"
#include "planner/verifier.h"

namespace glpool {
namespace {

using Ids = std::vector<size_t>;
using Sizes = std::vector<uint64_t>;

struct Expected {
  ObjectStrategy strategy;
  Ids ids;
  Sizes sizes;
};

void ExpectPlans(const std::vector<ByteRecord>& records, const std::vector<Expected>& cases) {
  for (const Expected& e : cases) {
    SCOPED_TRACE(ObjectStrategyName(e.strategy));
    StatusOr<ObjectsPlan> plan = PlanSharedObjects(records, e.strategy);
    ASSERT_TRUE(plan.ok()) << plan.status().ToString();
    EXPECT_EQ(plan->assignment.object_ids, e.ids);
    EXPECT_EQ(plan->assignment.object_sizes, e.sizes);
    EXPECT_TRUE(VerifySharedObjects(records, plan->assignment).ok());
  }
}

// A chain: live sets t0 {10}, t1 {10, 20}, t2 {20, 30}, t3 {30, 5}, t4 {5}.
// Lower bound: L1 = 30, L2 = 20.
const std::vector<ByteRecord> kChain = {{10, 0, 1}, {20, 1, 2}, {30, 2, 3}, {5, 3, 4}};

TEST(ObjectsPlannerTest, Chain) {
  ASSERT_EQ(SharedObjectsLowerBound(kChain), 50u);
  ExpectPlans(kChain, {
                          {ObjectStrategy::kNaive, {0, 1, 2, 3}, {10, 20, 30, 5}},
                          // No two sizes are equal: nothing is shared.
                          {ObjectStrategy::kEquality, {0, 1, 2, 3}, {10, 20, 30, 5}},
                          // 30 finds only object 0 (10) released: the largest free one, grown;
                          // 5 takes object 1 (20), released after task 2.
                          {ObjectStrategy::kGreedyInOrder, {0, 1, 0, 1}, {30, 20}},
                          // Busiest task 2 first: 30 and 20 open objects; task 3 puts 5 in the
                          // free 20; task 1 puts 10 in the 30 (free in tasks 0-1).
                          {ObjectStrategy::kGreedyByBreadth, {0, 1, 0, 1}, {30, 20}},
                          // Positions: 30 -> 0, 20 -> 1, 10 and 5 -> 2. In group 2 both fit
                          // without growth at distance 0; 10 goes first (lower object id).
                          {ObjectStrategy::kGreedyBySize, {0, 1, 0, 1}, {30, 20}},
                          // Savings: 0->2 (10), 0->3 (5), 1->3 (5); best matching 0->2, 1->3.
                          {ObjectStrategy::kMinCostFlow, {0, 1, 0, 1}, {30, 20}},
                          {ObjectStrategy::kAuto, {0, 1, 0, 1}, {30, 20}},
                      });
  EXPECT_EQ(PlanSharedObjects(kChain, ObjectStrategy::kAuto)->chosen,
            ObjectStrategy::kGreedyInOrder);
}

// A residual block: x (8, tasks 0-3) feeds a (4, 1-2) -> b (4, 2-3) and the
// add y (8, 3-4), followed by z (6, 4-5). Live sets: t2 {8, 4, 4},
// t3 {8, 8, 4}, t4 {8, 6}: lower bound 8 + 8 + 4.
const std::vector<ByteRecord> kBranchy = {{8, 0, 3}, {4, 1, 2}, {4, 2, 3}, {8, 3, 4}, {6, 4, 5}};

TEST(ObjectsPlannerTest, Branchy) {
  ASSERT_EQ(SharedObjectsLowerBound(kBranchy), 20u);
  ExpectPlans(kBranchy, {
                            {ObjectStrategy::kNaive, {0, 1, 2, 3, 4}, {8, 4, 4, 8, 6}},
                            // y (8) finds only a 4 released; z (6) finds 8s and 4s, no 6.
                            {ObjectStrategy::kEquality, {0, 1, 2, 3, 4}, {8, 4, 4, 8, 6}},
                            // y grows a's released object to 8; z takes x's 8 (the smallest
                            // released object that fits 6).
                            {ObjectStrategy::kGreedyInOrder, {0, 1, 2, 1, 0}, {8, 8, 4}},
                            // Task 3 (breadth 20): x, y, b open three objects; task 2: a joins y's
                            // (free in 1-2); task 4: z takes x's 8 over b's 4 (best fit).
                            {ObjectStrategy::kGreedyByBreadth, {0, 1, 2, 1, 0}, {8, 8, 4}},
                            // Positions (P = 8, 8, 4): x, y -> 0 (two objects); z, a, b -> 2.
                            // z fits x's object at distance 0 (lower id than y's), a fits y's,
                            // b finds no free object and opens the third.
                            {ObjectStrategy::kGreedyBySize, {0, 1, 2, 1, 0}, {8, 8, 4}},
                            // Savings: x->z 6, a->y 4, a->z 4, b->z 4: best x->z + a->y.
                            {ObjectStrategy::kMinCostFlow, {0, 1, 2, 1, 0}, {8, 8, 4}},
                            {ObjectStrategy::kAuto, {0, 1, 2, 1, 0}, {8, 8, 4}},
                        });
}

// Equal sizes: a chain of four 100s beside one 100 live throughout.
// Three are live at tasks 1-3: lower bound 300.
const std::vector<ByteRecord> kEqual = {
    {100, 0, 1}, {100, 1, 2}, {100, 2, 3}, {100, 3, 4}, {100, 0, 4}};

TEST(ObjectsPlannerTest, EqualSizes) {
  ASSERT_EQ(SharedObjectsLowerBound(kEqual), 300u);
  const Ids alternate = {0, 1, 0, 1, 2};
  ExpectPlans(kEqual, {
                          {ObjectStrategy::kNaive, {0, 1, 2, 3, 4}, {100, 100, 100, 100, 100}},
                          {ObjectStrategy::kEquality, alternate, {100, 100, 100}},
                          {ObjectStrategy::kGreedyInOrder, alternate, {100, 100, 100}},
                          {ObjectStrategy::kGreedyByBreadth, alternate, {100, 100, 100}},
                          {ObjectStrategy::kGreedyBySize, alternate, {100, 100, 100}},
                          {ObjectStrategy::kMinCostFlow, alternate, {100, 100, 100}},
                          {ObjectStrategy::kAuto, alternate, {100, 100, 100}},
                      });
  // Ties go to the earliest member: equality already meets the bound.
  EXPECT_EQ(PlanSharedObjects(kEqual, ObjectStrategy::kAuto)->chosen, ObjectStrategy::kEquality);
}

// Multi-GB tensors (past 32 bits) with small ones between them.
constexpr uint64_t kHuge = 5'000'000'000ull;
const std::vector<ByteRecord> kHugeSet = {{kHuge, 0, 2}, {1000, 2, 3}, {kHuge, 3, 5}, {1000, 5, 6}};

TEST(ObjectsPlannerTest, HugeTensors) {
  ASSERT_EQ(SharedObjectsLowerBound(kHugeSet), kHuge + 1000);
  const Ids pairs = {0, 1, 0, 1};
  const Sizes sizes = {kHuge, 1000};
  ExpectPlans(kHugeSet, {
                            {ObjectStrategy::kNaive, {0, 1, 2, 3}, {kHuge, 1000, kHuge, 1000}},
                            {ObjectStrategy::kEquality, pairs, sizes},
                            {ObjectStrategy::kGreedyInOrder, pairs, sizes},
                            {ObjectStrategy::kGreedyByBreadth, pairs, sizes},
                            {ObjectStrategy::kGreedyBySize, pairs, sizes},
                            // The saving 5e9 of huge -> huge needs 64-bit costs.
                            {ObjectStrategy::kMinCostFlow, pairs, sizes},
                            {ObjectStrategy::kAuto, pairs, sizes},
                        });
}

TEST(ObjectsPlannerTest, EmptyAndSingle) {
  for (ObjectStrategy s : AllObjectStrategies()) {
    SCOPED_TRACE(ObjectStrategyName(s));
    StatusOr<ObjectsPlan> empty = PlanSharedObjects({}, s);
    ASSERT_TRUE(empty.ok());
    EXPECT_TRUE(empty->assignment.object_ids.empty());
    EXPECT_EQ(TotalBytes(empty->assignment), 0u);
    StatusOr<ObjectsPlan> one = PlanSharedObjects({{7, 3, 3}}, s);
    ASSERT_TRUE(one.ok());
    EXPECT_EQ(one->assignment.object_ids, Ids{0});
    EXPECT_EQ(one->assignment.object_sizes, Sizes{7});
  }
}

TEST(ObjectsPlannerTest, AutoFindsWhatGreedyMisses) {
  // Live sets: t0 {4, 9}, t1 {4, 5}, t2 {9, 5}, t3 {9, 1}, t4 {9, 9, 1},
  // t5 {8, 9}: bound 9 + 9 + 1, met by X = {9@0, 5@1-2, 9@4-6},
  // Y = {4@0-1, 9@2-4, 8@5-6}, Z = {1@3-4}. Every greedy member and the
  // flow need at least 22 here; AUTO's search finds the exact fit.
  const std::vector<ByteRecord> records = {{1, 3, 4}, {4, 0, 1}, {9, 2, 4}, {5, 1, 2},
                                           {8, 5, 6}, {9, 0, 0}, {9, 4, 6}};
  ASSERT_EQ(SharedObjectsLowerBound(records), 19u);
  for (ObjectStrategy s : AllObjectStrategies()) {
    if (s == ObjectStrategy::kAuto) continue;
    EXPECT_GE(TotalBytes(PlanSharedObjects(records, s)->assignment), 22u) << ObjectStrategyName(s);
  }
  StatusOr<ObjectsPlan> plan = PlanSharedObjects(records, ObjectStrategy::kAuto);
  ASSERT_TRUE(plan.ok());
  EXPECT_TRUE(VerifySharedObjects(records, plan->assignment).ok());
  EXPECT_EQ(plan->assignment.object_ids, (Ids{0, 1, 1, 2, 1, 2, 2}));
  EXPECT_EQ(plan->assignment.object_sizes, (Sizes{1, 9, 9}));
  EXPECT_FALSE(plan->refinement.empty());
}

TEST(ObjectsPlannerTest, RejectsMalformedRecords) {
  for (ObjectStrategy s : AllObjectStrategies()) {
    StatusOr<ObjectsPlan> plan = PlanSharedObjects({{1, 0, 1}, {1, 5, 4}}, s);
    ASSERT_FALSE(plan.ok());
    EXPECT_EQ(plan.status().code(), StatusCode::kInvalidArgument);
    EXPECT_NE(plan.status().message().find("record 1"), std::string::npos);
  }
  EXPECT_FALSE(PlanSharedObjects({}, static_cast<ObjectStrategy>(99)).ok());
}

TEST(ObjectsPlannerTest, Names) {
  for (ObjectStrategy s : AllObjectStrategies()) {
    StatusOr<ObjectStrategy> parsed = ParseObjectStrategy(ObjectStrategyName(s));
    ASSERT_TRUE(parsed.ok());
    EXPECT_EQ(*parsed, s);
  }
  EXPECT_EQ(*ParseObjectStrategy("GREEDY_BY_BREADTH"), ObjectStrategy::kGreedyByBreadth);
  EXPECT_EQ(*ParseObjectStrategy("Min_Cost_Flow"), ObjectStrategy::kMinCostFlow);
  StatusOr<ObjectStrategy> bad = ParseObjectStrategy("greedy");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("greedy_by_size"), std::string::npos);
  EXPECT_EQ(AllObjectStrategies().back(), ObjectStrategy::kAuto);
  EXPECT_EQ(AllObjectStrategies().size(), 7u);
}

}  // namespace
}  // namespace glpool
