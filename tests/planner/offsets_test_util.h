// Helpers for the offset planner tests: a record shape harder to pack than
// the sequential one (arbitrary overlaps), and a brute-force optimum to check
// EXACT against.
#pragma once

#include <cstdint>
#include <random>
#include <vector>

#include "planner/usage_record.h"
#include "planner_test_util.h"

namespace glpool {
namespace offsets_testing {

// `tensors` records over a few tasks with arbitrary overlaps (lifetimes of 1
// to all tasks), sizes from `d` (kUNet sizes as kPowersOfTwo); now and then a
// zero-size record. Deterministic for a given generator state.
std::vector<ByteRecord> RandomIntervals(std::mt19937_64& rng, testing_util::SizeDistribution d,
                                        int tensors);

// The smallest arena any plan with offsets aligned to `alignment` needs:
// every order of stacking, each tensor pushed down onto the ones before it
// (in units of the alignment). Exponential: at most 8 records.
uint64_t BruteForceArena(const std::vector<ByteRecord>& records, uint64_t alignment);

}  // namespace offsets_testing
}  // namespace glpool
