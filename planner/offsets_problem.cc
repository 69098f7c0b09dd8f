#include "planner/offsets_problem.h"

#include <algorithm>

namespace glpool {

OffsetProblem MakeOffsetProblem(const std::vector<ByteRecord>& records, uint64_t alignment) {
  OffsetProblem problem;
  problem.alignment = alignment;
  problem.units = records;
  problem.bytes.reserve(records.size());
  for (ByteRecord& r : problem.units) {
    problem.bytes.push_back(r.size);
    r.size = r.size / alignment + (r.size % alignment != 0 ? 1 : 0);
  }
  return problem;
}

uint64_t ArenaBytes(const OffsetProblem& problem, const std::vector<uint64_t>& unit_offsets) {
  uint64_t total = 0;
  for (size_t i = 0; i < unit_offsets.size(); ++i) {
    total = std::max(total, unit_offsets[i] * problem.alignment + problem.bytes[i]);
  }
  return total;
}

std::vector<uint64_t> ByteOffsets(const OffsetProblem& problem,
                                  const std::vector<uint64_t>& unit_offsets) {
  std::vector<uint64_t> out(unit_offsets.size());
  for (size_t i = 0; i < out.size(); ++i) out[i] = unit_offsets[i] * problem.alignment;
  return out;
}

uint64_t ArenaUnits(const std::vector<ByteRecord>& units, const std::vector<uint64_t>& unit_offsets) {
  uint64_t total = 0;
  for (size_t i = 0; i < unit_offsets.size(); ++i) {
    total = std::max(total, unit_offsets[i] + units[i].size);
  }
  return total;
}

}  // namespace glpool
