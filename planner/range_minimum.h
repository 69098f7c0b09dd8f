// Range minima over a fixed array (a sparse table): O(n log n) to build,
// O(1) per query. The breadth-first greedies use it to find, for each
// tensor, the first visited task (or section) of its lifetime.
#pragma once

#include <algorithm>
#include <cstddef>
#include <vector>

namespace glpool {

class RangeMinimum {
 public:
  explicit RangeMinimum(std::vector<size_t> values) {
    table_.push_back(std::move(values));
    const size_t n = table_[0].size();
    for (size_t width = 1; 2 * width <= n; width *= 2) {
      const std::vector<size_t>& prev = table_.back();
      std::vector<size_t> next(n - 2 * width + 1);
      for (size_t i = 0; i < next.size(); ++i) next[i] = std::min(prev[i], prev[i + width]);
      table_.push_back(std::move(next));
    }
  }

  // Minimum of values[first..last], first <= last < n.
  size_t Min(size_t first, size_t last) const {
    size_t level = 0;
    while ((size_t{2} << level) <= last - first + 1) ++level;
    return std::min(table_[level][first], table_[level][last + 1 - (size_t{1} << level)]);
  }

 private:
  std::vector<std::vector<size_t>> table_;  // table_[k][i]: min of values[i, i + 2^k)
};

}  // namespace glpool
