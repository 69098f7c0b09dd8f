#include "planner/offsets_strip_packing.h"

#include <algorithm>
#include <utility>
#include <vector>

#include "planner/offsets_skyline.h"
#include "planner/time_sections.h"

namespace glpool {
namespace {

// The leftmost lowest non-wall section of a skyline, kept by a segment tree
// over (floor, section) with walls at the top, so that finding the lowest
// run does not rescan every section: O(log s) per changed section.
class LowestSection {
 public:
  explicit LowestSection(const Skyline& skyline) : skyline_(skyline) {
    while (leaves_ < skyline.size()) leaves_ *= 2;
    tree_.assign(2 * leaves_, {Skyline::kWall, SIZE_MAX});
    for (size_t s = 0; s < skyline.size(); ++s) tree_[leaves_ + s] = Key(s);
    for (size_t v = leaves_ - 1; v >= 1; --v) tree_[v] = std::min(tree_[2 * v], tree_[2 * v + 1]);
  }

  // SIZE_MAX when every section is a wall.
  size_t Lowest() const { return tree_[1].first == Skyline::kWall ? SIZE_MAX : tree_[1].second; }

  void Update(size_t first, size_t last) {
    for (size_t s = first; s <= last; ++s) {
      size_t v = leaves_ + s;
      tree_[v] = Key(s);
      for (v /= 2; v >= 1; v /= 2) tree_[v] = std::min(tree_[2 * v], tree_[2 * v + 1]);
    }
  }

 private:
  std::pair<uint64_t, size_t> Key(size_t s) const {
    return {skyline_.load(s) == 0 ? Skyline::kWall : skyline_.floor(s), s};
  }

  const Skyline& skyline_;
  size_t leaves_ = 1;
  std::vector<std::pair<uint64_t, size_t>> tree_;
};

}  // namespace

std::vector<uint64_t> OffsetsStripPacking(const std::vector<ByteRecord>& records,
                                          const Deadline* deadline) {
  const TimeSections sections = BuildTimeSections(records);
  Skyline skyline(SectionLoads(records, sections), /*undoable=*/false);
  std::vector<uint64_t> offsets(records.size(), 0);
  // Unplaced non-empty tensors by first section, in index order.
  std::vector<std::vector<size_t>> starts(sections.count);
  for (size_t i = 0; i < records.size(); ++i) {
    if (records[i].size != 0) starts[sections.first[i]].push_back(i);
  }
  auto better = [&](size_t a, size_t b) {  // a fits the gap better than b
    const size_t span_a = sections.last[a] - sections.first[a];
    const size_t span_b = sections.last[b] - sections.first[b];
    if (span_a != span_b) return span_a > span_b;
    if (records[a].size != records[b].size) return records[a].size > records[b].size;
    return a < b;
  };

  LowestSection lowest(skyline);
  for (size_t low = lowest.Lowest(); low != SIZE_MAX; low = lowest.Lowest()) {
    if (deadline != nullptr && deadline->Expired()) return {};
    const Skyline::Run run = skyline.RunFrom(low, skyline.size());
    size_t best = records.size();
    size_t best_start = 0;
    for (size_t s = run.begin; s <= run.end; ++s) {
      for (size_t i : starts[s]) {
        if (sections.last[i] > run.end) continue;
        if (best == records.size() || better(i, best)) {
          best = i;
          best_start = s;
        }
      }
    }
    if (best != records.size()) {
      offsets[best] = run.floor;
      skyline.Place(sections.first[best], sections.last[best], run.floor, records[best].size);
      lowest.Update(sections.first[best], sections.last[best]);
      auto& list = starts[best_start];
      list.erase(std::find(list.begin(), list.end(), best));
      continue;
    }
    // A tensor live in the run but not inside it reaches a non-wall
    // neighbour, so at least one side is finite here.
    skyline.Raise(run.begin, run.end, std::min(run.left, run.right));
    lowest.Update(run.begin, run.end);
  }
  return offsets;
}

}  // namespace glpool
