#include "offsets_test_util.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace glpool {
namespace offsets_testing {
namespace {

uint64_t Uniform(std::mt19937_64& rng, uint64_t lo, uint64_t hi) { return lo + rng() % (hi - lo + 1); }

uint64_t RandomSize(std::mt19937_64& rng, testing_util::SizeDistribution d) {
  switch (d) {
    case testing_util::SizeDistribution::kEqual: return 4096;
    case testing_util::SizeDistribution::kWide: {
      const double log_size = std::ldexp(static_cast<double>(rng() >> 11), -53) * std::log(1e9);
      return std::max<uint64_t>(1, static_cast<uint64_t>(std::exp(log_size)));
    }
    default: return uint64_t{1} << Uniform(rng, 4, 24);
  }
}

}  // namespace

std::vector<ByteRecord> RandomIntervals(std::mt19937_64& rng, testing_util::SizeDistribution d,
                                        int tensors) {
  const TaskId tasks = static_cast<TaskId>(Uniform(rng, 1, 12));
  std::vector<ByteRecord> records;
  for (int i = 0; i < tensors; ++i) {
    const TaskId first = static_cast<TaskId>(Uniform(rng, 0, tasks - 1));
    const TaskId last = static_cast<TaskId>(Uniform(rng, first, std::min(tasks - 1, first + 4)));
    const uint64_t size = rng() % 25 == 0 ? 0 : RandomSize(rng, d);
    records.push_back({size, first, last});
  }
  return records;
}

uint64_t BruteForceArena(const std::vector<ByteRecord>& records, uint64_t alignment) {
  const size_t n = records.size();
  std::vector<size_t> order(n);
  std::iota(order.begin(), order.end(), 0);
  uint64_t best = UINT64_MAX;
  do {
    std::vector<uint64_t> unit_offset(n, 0);
    uint64_t arena = 0;
    for (size_t k = 0; k < n; ++k) {
      const ByteRecord& r = records[order[k]];
      if (r.size == 0) continue;
      uint64_t at = 0;
      for (size_t j = 0; j < k; ++j) {
        const ByteRecord& p = records[order[j]];
        if (p.size == 0 || p.last_task < r.first_task || r.last_task < p.first_task) continue;
        at = std::max(at, unit_offset[order[j]] + (p.size + alignment - 1) / alignment);
      }
      unit_offset[order[k]] = at;
      arena = std::max(arena, at * alignment + r.size);
    }
    best = std::min(best, arena);
  } while (std::next_permutation(order.begin(), order.end()));
  return n == 0 ? 0 : best;
}

}  // namespace offsets_testing
}  // namespace glpool
