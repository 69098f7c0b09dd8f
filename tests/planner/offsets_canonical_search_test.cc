// The canonical-order search on its own (EXACT also runs it beside the
// skyline search, so EXACT's tests alone could hide a wrong answer of one of
// them): on small random sets it must find a packing at the brute-force
// optimum and prove one unit less infeasible, and every packing it returns
// must pass the verifier.
#include <gtest/gtest.h>

#include <chrono>
#include <random>

#include "offsets_test_util.h"
#include "planner/assignment.h"
#include "planner/lower_bounds.h"
#include "planner/offsets_problem.h"
#include "planner/offsets_arena_search.h"
#include "planner/offsets_canonical_search.h"
#include "planner/verifier.h"
#include "planner_test_util.h"

namespace glpool {
namespace {

using testing_util::SizeDistribution;

TEST(CanonicalSearchTest, DecidesLikeBruteForce) {
  const SizeDistribution distributions[] = {SizeDistribution::kEqual, SizeDistribution::kPowersOfTwo,
                                            SizeDistribution::kWide};
  std::mt19937_64 rng(977);
  int proofs = 0;
  for (int k = 0; k < 1500; ++k) {
    const SizeDistribution d = distributions[k % 3];
    const int tensors = 1 + static_cast<int>(rng() % 8);
    const std::vector<ByteRecord> records = offsets_testing::RandomIntervals(rng, d, tensors);
    const uint64_t optimum = offsets_testing::BruteForceArena(records, 1);
    SCOPED_TRACE("set " + std::to_string(k));
    CanonicalSearch search(records);
    const auto far = CanonicalSearch::Clock::now() + std::chrono::hours(1);
    std::vector<uint64_t> offsets;
    std::vector<uint64_t> caps(records.size(), optimum);
    ASSERT_EQ(search.Solve(caps, far, uint64_t{1} << 30, &offsets), SearchOutcome::kFound);
    OffsetsAssignment plan;
    plan.offsets = offsets;
    plan.total_size = 0;
    for (size_t i = 0; i < records.size(); ++i) {
      plan.total_size = std::max(plan.total_size, offsets[i] + records[i].size);
    }
    EXPECT_TRUE(VerifyOffsets(records, plan).ok());
    EXPECT_LE(plan.total_size, optimum);
    if (optimum == 0) continue;
    caps.assign(records.size(), optimum - 1);
    EXPECT_EQ(search.Solve(caps, far, uint64_t{1} << 30, &offsets), SearchOutcome::kInfeasible);
    ++proofs;
    if (HasFatalFailure() || HasNonfatalFailure()) return;
  }
  EXPECT_GT(proofs, 1000);
}

// Resumed in node-bounded slices (the way EXACT probes a capacity pass
// after pass), both searches must give the same answers as in one call: a
// slice that runs out only hands its attempt on to the next call (the
// skyline search redoes that attempt; the canonical one goes on in it).
TEST(CanonicalSearchTest, ResumedInSlicesDecidesLikeOneCall) {
  std::mt19937_64 rng(4242);
  int resumed = 0;
  for (int k = 0; k < 300; ++k) {
    const int tensors = 4 + static_cast<int>(rng() % 5);
    const std::vector<ByteRecord> records =
        offsets_testing::RandomIntervals(rng, SizeDistribution::kWide, tensors);
    const uint64_t optimum = offsets_testing::BruteForceArena(records, 1);
    if (optimum == 0) continue;
    SCOPED_TRACE("set " + std::to_string(k));
    const auto far = CanonicalSearch::Clock::now() + std::chrono::hours(1);
    for (uint64_t capacity : {optimum, optimum - 1}) {
      const std::vector<uint64_t> caps(records.size(), capacity);
      const SearchOutcome expected =
          capacity == optimum ? SearchOutcome::kFound : SearchOutcome::kInfeasible;
      CanonicalSearch canonical(records);
      ArenaSearch skyline(records);
      CanonicalProgress canonical_progress;
      SearchProgress skyline_progress;
      std::vector<uint64_t> offsets;
      SearchOutcome outcome = SearchOutcome::kTimedOut;
      int calls = 0;
      // Node caps doubling from 1 per call, as EXACT's slices double: the
      // first calls end inside a round.
      while (outcome == SearchOutcome::kTimedOut && calls < 40) {
        outcome = canonical.Solve(caps, far, uint64_t{1} << calls, &offsets, &canonical_progress);
        ++calls;
      }
      EXPECT_EQ(outcome, expected);
      if (calls > 1) ++resumed;
      outcome = SearchOutcome::kTimedOut;
      for (int call = 0; outcome == SearchOutcome::kTimedOut && call < 100000; ++call) {
        // The skyline search has no node cap per call: an already-passed
        // deadline cuts each call after its first check.
        outcome = skyline.Solve(caps, call % 2 == 0 ? CanonicalSearch::Clock::now() : far, &offsets,
                                &skyline_progress);
      }
      EXPECT_EQ(outcome, expected);
    }
    if (HasFatalFailure() || HasNonfatalFailure()) return;
  }
  EXPECT_GT(resumed, 100);
}

// Cut to two nodes per call, the search must go on where it stopped: it is
// deterministic, so the sliced search makes the same decisions as one call
// (the same plan, or the same proof) in as many nodes. A search that redid
// its attempt at each call would never finish here.
TEST(CanonicalSearchTest, SlicedToTwoNodesFindsWhatOneCallFinds) {
  std::mt19937_64 rng(77);
  int found = 0, refuted = 0, long_runs = 0;
  for (int k = 0; k < 600; ++k) {
    SCOPED_TRACE("set " + std::to_string(k));
    std::vector<ByteRecord> records;
    uint64_t capacity = 0;
    if (k % 2 == 0) {
      // Small sets at their optimum or one unit below it (a proof).
      const int tensors = 4 + static_cast<int>(rng() % 5);
      records = offsets_testing::RandomIntervals(rng, SizeDistribution::kWide, tensors);
      capacity = offsets_testing::BruteForceArena(records, 1) - (k % 4 == 0 ? 1 : 0);
    } else {
      // Larger, denser sets at their lower bound: deeper trees, split into
      // independent parts along the way.
      const int tensors = 15 + static_cast<int>(rng() % 26);
      for (int i = 0; i < tensors; ++i) {
        const TaskId first = static_cast<TaskId>(rng() % 16);
        records.push_back({1 + rng() % 100, first, first + static_cast<TaskId>(rng() % 8)});
      }
      capacity = OffsetsLowerBound(records);
    }
    if (capacity == 0 || capacity == UINT64_MAX) continue;
    const std::vector<uint64_t> caps(records.size(), capacity);
    const auto far = CanonicalSearch::Clock::now() + std::chrono::hours(1);
    CanonicalSearch search(records);
    std::vector<uint64_t> one_call;
    const SearchOutcome expected = search.Solve(caps, far, uint64_t{1} << 20, &one_call);
    ASSERT_NE(expected, SearchOutcome::kTimedOut);
    const uint64_t one_call_nodes = search.nodes();

    CanonicalProgress progress;
    std::vector<uint64_t> sliced;
    SearchOutcome outcome = SearchOutcome::kTimedOut;
    uint64_t calls = 0, sliced_nodes = 0;
    while (outcome == SearchOutcome::kTimedOut && calls < one_call_nodes + 10) {
      outcome = search.Solve(caps, far, 2, &sliced, &progress);
      sliced_nodes += search.nodes();
      ++calls;
    }
    ASSERT_EQ(outcome, expected);
    EXPECT_EQ(sliced_nodes, one_call_nodes);
    if (calls > 10) ++long_runs;
    if (expected == SearchOutcome::kFound) {
      EXPECT_EQ(sliced, one_call);
      OffsetsAssignment plan;
      plan.offsets = sliced;
      plan.total_size = ArenaUnits(records, sliced);
      EXPECT_TRUE(VerifyOffsets(records, plan).ok());
      EXPECT_LE(plan.total_size, capacity);
      ++found;
    } else {
      ++refuted;
    }
    if (HasFatalFailure() || HasNonfatalFailure()) return;
  }
  EXPECT_GT(found, 300);
  EXPECT_GT(refuted, 100);
  EXPECT_GT(long_runs, 50);
}

}  // namespace
}  // namespace glpool
