#include "planner/verifier.h"

#include <algorithm>
#include <map>
#include <queue>
#include <sstream>

namespace glpool {
namespace {

std::string RecordLabel(size_t i, const std::vector<std::string>* names) {
  std::string label = "record " + std::to_string(i);
  if (names != nullptr && i < names->size() && !(*names)[i].empty()) {
    label += " (" + (*names)[i] + ")";
  }
  return label;
}

std::string ToText(uint64_t s) { return std::to_string(s); }
std::string ToText(const Extent2D& e) { return std::to_string(e.w) + "x" + std::to_string(e.h); }
std::string ToText(const Extent3D& e) {
  return std::to_string(e.w) + "x" + std::to_string(e.h) + "x" + std::to_string(e.d);
}

bool Covers(uint64_t object, uint64_t tensor) { return object >= tensor; }
bool Covers(const Extent2D& object, const Extent2D& tensor) {
  return object.w >= tensor.w && object.h >= tensor.h;
}
bool Covers(const Extent3D& object, const Extent3D& tensor) {
  return object.w >= tensor.w && object.h >= tensor.h && object.d >= tensor.d;
}

template <typename Size>
Status CheckWellFormed(const std::vector<UsageRecord<Size>>& records,
                       const std::vector<std::string>* names) {
  for (size_t i = 0; i < records.size(); ++i) {
    if (records[i].last_task < records[i].first_task) {
      return InvalidArgumentError(RecordLabel(i, names) + " ends at task " +
                                  std::to_string(records[i].last_task) + " before it starts at " +
                                  std::to_string(records[i].first_task));
    }
  }
  return Status::Ok();
}

template <typename Size>
std::string TaskRange(const UsageRecord<Size>& r) {
  return "[" + std::to_string(r.first_task) + ", " + std::to_string(r.last_task) + "]";
}

}  // namespace

template <typename Size>
Status VerifySharedObjects(const std::vector<UsageRecord<Size>>& records,
                           const ObjectsAssignment<Size>& assignment,
                           const std::vector<std::string>* names) {
  if (assignment.object_ids.size() != records.size()) {
    return InvalidArgumentError("plan has " + std::to_string(assignment.object_ids.size()) +
                                " object ids for " + std::to_string(records.size()) + " records");
  }
  GLPOOL_RETURN_IF_ERROR(CheckWellFormed(records, names));
  const size_t num_objects = assignment.object_sizes.size();
  std::vector<std::vector<size_t>> members(num_objects);
  for (size_t i = 0; i < records.size(); ++i) {
    const size_t id = assignment.object_ids[i];
    if (id >= num_objects) {
      return InvalidArgumentError(RecordLabel(i, names) + " is in object " + std::to_string(id) +
                                  " but the plan has only " + std::to_string(num_objects) +
                                  " objects");
    }
    if (!Covers(assignment.object_sizes[id], records[i].size)) {
      return InvalidArgumentError(RecordLabel(i, names) + " of size " + ToText(records[i].size) +
                                  " does not fit its object " + std::to_string(id) + " of size " +
                                  ToText(assignment.object_sizes[id]));
    }
    members[id].push_back(i);
  }
  for (size_t id = 0; id < num_objects; ++id) {
    std::vector<size_t>& m = members[id];
    if (m.empty()) {
      return InvalidArgumentError("object " + std::to_string(id) + " of size " +
                                  ToText(assignment.object_sizes[id]) + " holds no tensor");
    }
    // Sorted by first task, any overlapping pair implies an overlapping
    // neighbour pair, so checking neighbours is enough.
    std::sort(m.begin(), m.end(), [&](size_t a, size_t b) {
      return records[a].first_task != records[b].first_task
                 ? records[a].first_task < records[b].first_task
                 : a < b;
    });
    for (size_t j = 1; j < m.size(); ++j) {
      const auto& prev = records[m[j - 1]];
      const auto& next = records[m[j]];
      if (next.first_task <= prev.last_task) {
        return InvalidArgumentError(RecordLabel(m[j - 1], names) + " live in tasks " +
                                    TaskRange(prev) + " and " + RecordLabel(m[j], names) +
                                    " live in tasks " + TaskRange(next) + " share object " +
                                    std::to_string(id));
      }
    }
  }
  return Status::Ok();
}

template Status VerifySharedObjects<uint64_t>(const std::vector<UsageRecord<uint64_t>>&,
                                              const ObjectsAssignment<uint64_t>&,
                                              const std::vector<std::string>*);
template Status VerifySharedObjects<Extent2D>(const std::vector<UsageRecord<Extent2D>>&,
                                              const ObjectsAssignment<Extent2D>&,
                                              const std::vector<std::string>*);
template Status VerifySharedObjects<Extent3D>(const std::vector<UsageRecord<Extent3D>>&,
                                              const ObjectsAssignment<Extent3D>&,
                                              const std::vector<std::string>*);

Status VerifyOffsets(const std::vector<ByteRecord>& records, const OffsetsAssignment& assignment,
                     uint64_t alignment, const std::vector<std::string>* names) {
  if (alignment == 0) return InvalidArgumentError("alignment must be at least 1");
  if (assignment.offsets.size() != records.size()) {
    return InvalidArgumentError("plan has " + std::to_string(assignment.offsets.size()) +
                                " offsets for " + std::to_string(records.size()) + " records");
  }
  GLPOOL_RETURN_IF_ERROR(CheckWellFormed(records, names));
  uint64_t max_end = 0;
  for (size_t i = 0; i < records.size(); ++i) {
    const uint64_t offset = assignment.offsets[i];
    const uint64_t size = records[i].size;
    if (offset % alignment != 0) {
      return InvalidArgumentError(RecordLabel(i, names) + " is at offset " + ToText(offset) +
                                  ", not a multiple of the alignment " + ToText(alignment));
    }
    if (offset > assignment.total_size || size > assignment.total_size - offset) {
      return InvalidArgumentError(RecordLabel(i, names) + " at offset " + ToText(offset) +
                                  " of size " + ToText(size) + " runs past the arena end " +
                                  ToText(assignment.total_size));
    }
    max_end = std::max(max_end, offset + size);
  }
  if (max_end != assignment.total_size) {
    return InvalidArgumentError("arena total_size " + ToText(assignment.total_size) +
                                " differs from the end of its last tensor " + ToText(max_end));
  }

  // Sweep over time, keeping the records live at the current start task in a
  // map ordered by offset. The live set stays byte-disjoint while the plan is
  // valid, so a new record can only collide with its offset neighbours.
  std::vector<size_t> order;
  for (size_t i = 0; i < records.size(); ++i) {
    if (records[i].size > 0) order.push_back(i);
  }
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return records[a].first_task != records[b].first_task
               ? records[a].first_task < records[b].first_task
               : a < b;
  });
  using Ending = std::pair<TaskId, size_t>;  // (last_task, record)
  std::priority_queue<Ending, std::vector<Ending>, std::greater<Ending>> ends;
  std::map<uint64_t, size_t> live;  // offset -> record
  auto collision = [&](size_t a, size_t b) {
    return InvalidArgumentError(
        RecordLabel(a, names) + " (bytes [" + ToText(assignment.offsets[a]) + ", " +
        ToText(assignment.offsets[a] + records[a].size) + "), tasks " + TaskRange(records[a]) +
        ") and " + RecordLabel(b, names) + " (bytes [" + ToText(assignment.offsets[b]) + ", " +
        ToText(assignment.offsets[b] + records[b].size) + "), tasks " + TaskRange(records[b]) +
        ") overlap in both time and bytes");
  };
  for (size_t i : order) {
    while (!ends.empty() && ends.top().first < records[i].first_task) {
      live.erase(assignment.offsets[ends.top().second]);
      ends.pop();
    }
    const uint64_t begin = assignment.offsets[i];
    const uint64_t end = begin + records[i].size;
    auto next = live.lower_bound(begin);
    if (next != live.end() && next->first < end) return collision(next->second, i);
    if (next != live.begin()) {
      auto prev = std::prev(next);
      if (prev->first + records[prev->second].size > begin) return collision(prev->second, i);
    }
    live.emplace(begin, i);
    ends.push({records[i].last_task, i});
  }
  return Status::Ok();
}

}  // namespace glpool
