#include "planner/objects_common.h"

#include <algorithm>
#include <numeric>

namespace glpool {

ObjectsAssignment<uint64_t> AssignmentFromIds(const std::vector<ByteRecord>& records,
                                              const std::vector<size_t>& ids) {
  ObjectsAssignment<uint64_t> out;
  out.object_ids.resize(ids.size());
  std::vector<size_t> dense;
  for (size_t i = 0; i < ids.size(); ++i) {
    if (ids[i] >= dense.size()) dense.resize(ids[i] + 1, SIZE_MAX);
    if (dense[ids[i]] == SIZE_MAX) {
      dense[ids[i]] = out.object_sizes.size();
      out.object_sizes.push_back(0);
    }
    const size_t id = dense[ids[i]];
    out.object_ids[i] = id;
    out.object_sizes[id] = std::max(out.object_sizes[id], records[i].size);
  }
  return out;
}

uint64_t SumObjectSizes(const ObjectsAssignment<uint64_t>& assignment) {
  uint64_t total = 0;
  for (uint64_t s : assignment.object_sizes) total += s;
  return total;
}

std::vector<size_t> OrderBySizeDesc(const std::vector<ByteRecord>& records) {
  std::vector<size_t> order(records.size());
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    if (records[a].size != records[b].size) return records[a].size > records[b].size;
    if (records[a].first_task != records[b].first_task) {
      return records[a].first_task < records[b].first_task;
    }
    return a < b;
  });
  return order;
}

std::vector<size_t> OrderByFirstTask(const std::vector<ByteRecord>& records) {
  std::vector<size_t> order(records.size());
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    if (records[a].first_task != records[b].first_task) {
      return records[a].first_task < records[b].first_task;
    }
    if (records[a].size != records[b].size) return records[a].size > records[b].size;
    return a < b;
  });
  return order;
}

}  // namespace glpool
