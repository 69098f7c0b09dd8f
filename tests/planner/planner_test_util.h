// Shared helpers for the planner tests: seeded random record sets in the
// shapes networks produce, and the zoo's location.
#pragma once

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "planner/records_json.h"
#include "planner/usage_record.h"

namespace glpool {
namespace testing_util {

enum class SizeDistribution {
  kEqual,        // every tensor the same size
  kPowersOfTwo,  // 2^k bytes, k in [4, 24]
  kWide,         // 1 .. 1e9 bytes, log-uniform
  kUNet,         // an encoder-decoder: long-lived skips, halving/doubling sizes
};

const char* DistributionName(SizeDistribution d);

// A random record set of `tensors` records (UNet ignores it and builds its
// own depth from the generator). Deterministic for a given generator state.
std::vector<ByteRecord> RandomRecords(std::mt19937_64& rng, SizeDistribution d, int tensors);

// Every *.json under `dir`, sorted; empty when the folder is missing.
std::vector<std::string> JsonFiles(const std::string& dir);

}  // namespace testing_util
}  // namespace glpool
