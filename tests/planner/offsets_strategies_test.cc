// Exact offsets on small hand-made record sets, for every offset strategy,
// worked out by hand from each strategy's header (the derivations are in the
// comments); plus the public API's names, parsing and input errors.
#include <gtest/gtest.h>

#include <limits>
#include <set>

#include "planner/lower_bounds.h"
#include "planner/offsets_planner.h"
#include "planner/verifier.h"

namespace glpool {
namespace {

using Offsets = std::vector<uint64_t>;

OffsetPlan Plan(const std::vector<ByteRecord>& records, OffsetStrategy strategy,
                uint64_t alignment = 1) {
  OffsetOptions options;
  options.alignment = alignment;
  StatusOr<OffsetPlan> plan = PlanOffsets(records, strategy, options);
  EXPECT_TRUE(plan.ok()) << plan.status().ToString();
  if (!plan.ok()) return {};
  const Status valid = VerifyOffsets(records, plan->assignment, alignment);
  EXPECT_TRUE(valid.ok()) << OffsetStrategyName(strategy) << ": " << valid.ToString();
  EXPECT_GE(plan->assignment.total_size, OffsetsLowerBound(records));
  return *plan;
}

// A chain: each op consumes the previous output.
//   a(100) 0..1, b(50) 1..2, c(100) 2..3, d(50) 3..4; lower bound 150.
const std::vector<ByteRecord> kChain = {{100, 0, 1}, {50, 1, 2}, {100, 2, 3}, {50, 3, 4}};

TEST(OffsetsStrategiesTest, Chain) {
  // By size (a, c, b, d): a@0, c@0 (disjoint from a), b above a and c @100,
  // d above c @100. In order and by breadth reach the same plan: c fits the
  // 100-byte hole under b. Strip packing: c first (longest-lived, larger than
  // b), a beside it, the gaps under b and d are raised, b and d go on top.
  const Offsets expected = {0, 100, 0, 100};
  for (OffsetStrategy s : {OffsetStrategy::kGreedyBySize, OffsetStrategy::kGreedyInOrder,
                           OffsetStrategy::kGreedyByBreadth, OffsetStrategy::kStripPacking,
                           OffsetStrategy::kExact}) {
    const OffsetPlan plan = Plan(kChain, s);
    EXPECT_EQ(plan.assignment.offsets, expected) << OffsetStrategyName(s);
    EXPECT_EQ(plan.assignment.total_size, 150u) << OffsetStrategyName(s);
    EXPECT_EQ(plan.chosen, s);
  }
  // AUTO stops at the first heuristic at the bound (greedy by breadth runs
  // first).
  const OffsetPlan autoplan = Plan(kChain, OffsetStrategy::kAuto);
  EXPECT_EQ(autoplan.assignment.offsets, expected);
  EXPECT_EQ(autoplan.chosen, OffsetStrategy::kGreedyByBreadth);
  EXPECT_TRUE(autoplan.proven_optimal);
  EXPECT_EQ(autoplan.lower_bound, 150u);
  EXPECT_EQ(autoplan.proven_lower_bound, 150u);
  // Objects laid end to end: {a, c} share one object and {b, d} another.
  const OffsetPlan objects = Plan(kChain, OffsetStrategy::kObjectsToOffsets);
  const Offsets& o = objects.assignment.offsets;
  EXPECT_EQ(o[0], o[2]);
  EXPECT_EQ(o[1], o[3]);
  EXPECT_EQ(objects.assignment.total_size, 150u);
}

// A residual block: a(80) 0..2 feeds b = conv(a) (40, 1..2) and c = a + b
// (80, 2..3); d(20) 3..4. Live bytes peak at task 2: 200.
const std::vector<ByteRecord> kBranchy = {{80, 0, 2}, {40, 1, 2}, {80, 2, 3}, {20, 3, 4}};

TEST(OffsetsStrategiesTest, Branchy) {
  // By size (a, c, b, d): a@0, c@80, b@160, d in the 80-byte hole under c @0.
  // By breadth starts at task 2 (a, c, b by size): the same plan.
  EXPECT_EQ(Plan(kBranchy, OffsetStrategy::kGreedyBySize).assignment.offsets, (Offsets{0, 160, 80, 0}));
  EXPECT_EQ(Plan(kBranchy, OffsetStrategy::kGreedyByBreadth).assignment.offsets,
            (Offsets{0, 160, 80, 0}));
  // In order: a@0, b@80, c above both @120, d under c @0.
  EXPECT_EQ(Plan(kBranchy, OffsetStrategy::kGreedyInOrder).assignment.offsets, (Offsets{0, 80, 120, 0}));
  // Strip packing: a (longest, lowest index among the longest) @0, d in the
  // gap right of it @0, gaps raised to 80, c (longer than b) @80, b on top.
  EXPECT_EQ(Plan(kBranchy, OffsetStrategy::kStripPacking).assignment.offsets, (Offsets{0, 160, 80, 0}));
  for (OffsetStrategy s : AllOffsetStrategies()) {
    EXPECT_EQ(Plan(kBranchy, s).assignment.total_size, 200u) << OffsetStrategyName(s);
  }
}

// Equal sizes: a(10) 0..3 overlaps b(10) 0..1 and c(10) 2..3; d(10) 4..5
// alone. Bound 20.
const std::vector<ByteRecord> kEqual = {{10, 0, 3}, {10, 0, 1}, {10, 2, 3}, {10, 4, 5}};

TEST(OffsetsStrategiesTest, EqualSizes) {
  // Every heuristic: a@0, b and c on a @10, d alone @0 (ties by index; strip
  // packing takes a first as the longest-lived).
  for (OffsetStrategy s : AllOffsetStrategies()) {
    const OffsetPlan plan = Plan(kEqual, s);
    EXPECT_EQ(plan.assignment.total_size, 20u) << OffsetStrategyName(s);
    if (s == OffsetStrategy::kObjectsToOffsets) continue;  // depends on object numbering
    EXPECT_EQ(plan.assignment.offsets, (Offsets{0, 10, 10, 0})) << OffsetStrategyName(s);
  }
}

// One huge tensor h (1e9 + 7) among small ones: p(10) 0..1, q(20) 2..3 and a
// long-lived r(5) 0..3. Bound: h + q + r = 1e9 + 32 at task 2.
constexpr uint64_t kHuge = 1000000007;
const std::vector<ByteRecord> kOneHuge = {{10, 0, 1}, {kHuge, 1, 2}, {20, 2, 3}, {5, 0, 3}};

TEST(OffsetsStrategiesTest, OneHugeTensor) {
  // By size (h, q, p, r): h@0, q and p on h, r above both.
  EXPECT_EQ(Plan(kOneHuge, OffsetStrategy::kGreedyBySize).assignment.offsets,
            (Offsets{kHuge, 0, kHuge, kHuge + 20}));
  // In order (p, r, h, q): p@0, r@10, h@15, q on h: 35 bytes over the bound.
  const OffsetPlan in_order = Plan(kOneHuge, OffsetStrategy::kGreedyInOrder);
  EXPECT_EQ(in_order.assignment.offsets, (Offsets{0, 15, kHuge + 15, 10}));
  EXPECT_EQ(in_order.assignment.total_size, kHuge + 35);
  // By breadth: task 2 first (h, q, r as by size), then p fits the 20-byte
  // hole between h's end and r, @kHuge.
  EXPECT_EQ(Plan(kOneHuge, OffsetStrategy::kGreedyByBreadth).assignment.offsets,
            (Offsets{kHuge, 0, kHuge, kHuge + 20}));
  // Strip packing: r (longest-lived) @0, h @5, the edges are raised, p and q
  // on top of h.
  EXPECT_EQ(Plan(kOneHuge, OffsetStrategy::kStripPacking).assignment.offsets,
            (Offsets{kHuge + 5, 5, kHuge + 5, 0}));
  for (OffsetStrategy s : {OffsetStrategy::kGreedyBySize, OffsetStrategy::kGreedyByBreadth,
                           OffsetStrategy::kStripPacking, OffsetStrategy::kExact,
                           OffsetStrategy::kAuto}) {
    const OffsetPlan plan = Plan(kOneHuge, s);
    EXPECT_EQ(plan.assignment.total_size, kHuge + 25) << OffsetStrategyName(s);
  }
}

TEST(OffsetsStrategiesTest, Alignment) {
  // The chain with 64-byte alignment: sizes pack as 128 and 64. The
  // heuristics put the big tensors at the bottom: b and d @128, arena 178.
  for (OffsetStrategy s : {OffsetStrategy::kGreedyBySize, OffsetStrategy::kGreedyInOrder,
                           OffsetStrategy::kGreedyByBreadth, OffsetStrategy::kStripPacking}) {
    const OffsetPlan plan = Plan(kChain, s, 64);
    EXPECT_EQ(plan.assignment.offsets, (Offsets{0, 128, 0, 128})) << OffsetStrategyName(s);
    EXPECT_EQ(plan.assignment.total_size, 178u) << OffsetStrategyName(s);
  }
  // Optimal: the small tensors at the bottom, the big ones @64, whose last
  // 28 bytes of padding need no room: 164. Any plan puts a over b (>= 164) or
  // b over a (>= 128 + 50), so it is proven.
  for (OffsetStrategy s : {OffsetStrategy::kExact, OffsetStrategy::kAuto}) {
    const OffsetPlan plan = Plan(kChain, s, 64);
    EXPECT_EQ(plan.assignment.offsets, (Offsets{64, 0, 64, 0})) << OffsetStrategyName(s);
    EXPECT_EQ(plan.assignment.total_size, 164u);
    EXPECT_TRUE(plan.proven_optimal);
    EXPECT_EQ(plan.proven_lower_bound, 164u);
    EXPECT_EQ(plan.lower_bound, 150u);
  }
  EXPECT_EQ(Plan(kChain, OffsetStrategy::kObjectsToOffsets, 64).assignment.offsets.size(), 4u);
}

TEST(OffsetsStrategiesTest, EmptyAndZeroSize) {
  const std::vector<ByteRecord> zeros = {{0, 0, 3}, {7, 1, 2}, {0, 2, 2}};
  for (OffsetStrategy s : AllOffsetStrategies()) {
    EXPECT_EQ(Plan({}, s).assignment.total_size, 0u) << OffsetStrategyName(s);
    const OffsetPlan plan = Plan(zeros, s, 4);
    EXPECT_EQ(plan.assignment.offsets, (Offsets{0, 0, 0})) << OffsetStrategyName(s);
    EXPECT_EQ(plan.assignment.total_size, 7u) << OffsetStrategyName(s);
  }
}

TEST(OffsetsStrategiesTest, ExactBeatsEveryHeuristic) {
  // Two long tensors x, y (6 each) over tasks 0..3 and 2..5, and short ones
  // that must fill around them. Best fit by size stacks x, y and then the
  // small ones above; the optimum interleaves them. Checked by brute force
  // in offsets_exact_test.cc; here only that EXACT is never worse.
  const std::vector<ByteRecord> records = {{6, 0, 3}, {6, 2, 5}, {4, 0, 1}, {4, 4, 5}, {2, 2, 3}};
  const OffsetPlan exact = Plan(records, OffsetStrategy::kExact);
  EXPECT_TRUE(exact.proven_optimal);
  for (OffsetStrategy s : AllOffsetStrategies()) {
    EXPECT_GE(Plan(records, s).assignment.total_size, exact.assignment.total_size)
        << OffsetStrategyName(s);
  }
}

TEST(OffsetsStrategiesTest, NamesRoundTrip) {
  const std::vector<OffsetStrategy>& all = AllOffsetStrategies();
  ASSERT_EQ(all.size(), 8u);
  EXPECT_EQ(all.back(), OffsetStrategy::kAuto);
  const std::vector<std::string> names = {"greedy_by_size",     "greedy_in_order", "greedy_by_breadth",
                                          "strip_packing",      "peak_first",      "objects_to_offsets",
                                          "exact",              "auto"};
  std::set<std::string> seen;
  for (size_t k = 0; k < all.size(); ++k) {
    EXPECT_EQ(OffsetStrategyName(all[k]), names[k]);
    seen.insert(OffsetStrategyName(all[k]));
    StatusOr<OffsetStrategy> parsed = ParseOffsetStrategy(names[k]);
    ASSERT_TRUE(parsed.ok());
    EXPECT_EQ(*parsed, all[k]);
  }
  EXPECT_EQ(seen.size(), all.size());
  EXPECT_EQ(*ParseOffsetStrategy("GREEDY_BY_SIZE"), OffsetStrategy::kGreedyBySize);
  EXPECT_EQ(*ParseOffsetStrategy("Exact"), OffsetStrategy::kExact);
  StatusOr<OffsetStrategy> bad = ParseOffsetStrategy("best_fit");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(bad.status().message().find("best_fit"), std::string::npos);
  EXPECT_NE(bad.status().message().find("strip_packing"), std::string::npos);
}

TEST(OffsetsStrategiesTest, RejectsBadInput) {
  OffsetOptions options;
  options.alignment = 0;
  StatusOr<OffsetPlan> plan = PlanOffsets(kChain, OffsetStrategy::kAuto, options);
  ASSERT_FALSE(plan.ok());
  EXPECT_EQ(plan.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(plan.status().message().find("alignment"), std::string::npos);

  const std::vector<ByteRecord> backwards = {{10, 0, 1}, {10, 1, 2}, {10, 5, 3}};
  for (OffsetStrategy s : AllOffsetStrategies()) {
    plan = PlanOffsets(backwards, s, OffsetOptions{});
    ASSERT_FALSE(plan.ok()) << OffsetStrategyName(s);
    EXPECT_EQ(plan.status().code(), StatusCode::kInvalidArgument);
    EXPECT_NE(plan.status().message().find("record 2"), std::string::npos) << plan.status().message();
  }

  options = OffsetOptions{};
  options.budget_seconds = -1.0;
  EXPECT_FALSE(PlanOffsets(kChain, OffsetStrategy::kExact, options).ok());

  const uint64_t max = std::numeric_limits<uint64_t>::max();
  // Past the per-record limit (record_limits.h), named before any padding.
  const std::vector<ByteRecord> huge = {{1, 0, 1}, {max / 2, 1, 2}, {max / 2, 2, 3}};
  plan = PlanOffsets(huge, OffsetStrategy::kGreedyBySize, OffsetOptions{});
  ASSERT_FALSE(plan.ok());
  EXPECT_NE(plan.status().message().find("record 1"), std::string::npos) << plan.status().message();
  options = OffsetOptions{};
  options.alignment = uint64_t{1} << 63;
  plan = PlanOffsets({{1, 0, 0}, {1, 0, 0}}, OffsetStrategy::kGreedyBySize, options);
  ASSERT_FALSE(plan.ok());
  EXPECT_NE(plan.status().message().find("record 1"), std::string::npos) << plan.status().message();
}

}  // namespace
}  // namespace glpool
