#include "planner/objects_greedy_by_size.h"

#include <algorithm>
#include <cstddef>
#include <tuple>

#include "planner/lower_bounds.h"
#include "planner/nearest_free_object.h"
#include "planner/objects_common.h"

namespace glpool {
namespace {

constexpr size_t kNone = SIZE_MAX;
// Tensors of one position competing at once; a position of a network rarely has more.
constexpr size_t kWindow = 64;

struct Choice {
  uint64_t growth = UINT64_MAX;
  TaskId distance = NearestFreeObject::kFar;
  size_t object = kNone;
  bool Better(const Choice& o) const {
    return std::tie(growth, distance, object) < std::tie(o.growth, o.distance, o.object);
  }
};

class Planner {
 public:
  explicit Planner(const std::vector<ByteRecord>& records)
      : records_(records), ids_(records.size(), kNone), best_(records.size()), free_(records) {}

  ObjectsAssignment<uint64_t> Run() {
    const std::vector<uint64_t> maxima = PositionalMaxima(records_);
    std::vector<std::vector<size_t>> groups(maxima.size() + 1);
    for (size_t i : OrderBySizeDesc(records_)) {
      // First k with P_k <= size; maxima is non-increasing.
      auto it = std::lower_bound(maxima.begin(), maxima.end(), records_[i].size,
                                 [](uint64_t p, uint64_t s) { return p > s; });
      groups[it - maxima.begin()].push_back(i);
    }
    for (std::vector<size_t>& group : groups) PlaceGroup(group);
    return AssignmentFromIds(records_, ids_);
  }

 private:
  // Growth is always 0 here: every object is at least as large as every
  // unassigned tensor. Objects of earlier positions hold a tensor of at
  // least P_{k-1}, above every tensor of position k; an object of this
  // position was opened by the largest unassigned tensor (the window and the
  // group are size-descending). So the best object is the nearest free one,
  // ties to the lowest id, which the index finds in O(log n).
  Choice Evaluate(size_t tensor, size_t object) const {
    const ByteRecord& r = records_[tensor];
    Choice c;
    if (!free_.FreeDistance(object, r.first_task, r.last_task, &c.distance)) return c;
    c.growth = r.size > sizes_[object] ? r.size - sizes_[object] : 0;
    c.object = object;
    return c;
  }

  void Refresh(size_t tensor) {
    Choice& best = best_[tensor];
    best = Choice();
    const ByteRecord& r = records_[tensor];
    size_t object;
    TaskId distance;
    if (!free_.Nearest(r.first_task, r.last_task, &object, &distance)) return;
    best.growth = r.size > sizes_[object] ? r.size - sizes_[object] : 0;
    best.distance = distance;
    best.object = object;
  }

  // The position's tensors enter a window of at most kWindow, largest
  // first; the pair is chosen among the window's tensors.
  void PlaceGroup(const std::vector<size_t>& group) {
    std::vector<size_t> window;  // size-descending, unassigned
    size_t next = 0;             // group[next] is the next to enter
    auto refill = [&] {
      while (window.size() < kWindow && next < group.size()) {
        Refresh(group[next]);
        window.push_back(group[next++]);
      }
    };
    refill();
    while (!window.empty()) {
      size_t pick = kNone;
      for (size_t k = 0; k < window.size(); ++k) {
        const Choice& c = best_[window[k]];
        if (c.object == kNone) continue;
        if (pick == kNone || c.Better(best_[window[pick]])) pick = k;
      }
      size_t object;
      if (pick == kNone) {
        pick = 0;
        object = free_.AddObject();
        sizes_.push_back(records_[window[0]].size);
      } else {
        object = best_[window[pick]].object;
      }
      const size_t tensor = window[pick];
      window.erase(window.begin() + static_cast<std::ptrdiff_t>(pick));
      const ByteRecord& r = records_[tensor];
      free_.Occupy(object, tensor);
      sizes_[object] = std::max(sizes_[object], r.size);
      ids_[tensor] = object;
      // Only `object` changed, and only by growing and gaining a tensor:
      // where it is still free it only got better (less growth, nearer), so
      // it stays the best of a tensor whose best it was and may become the
      // best of others. Only where the new tensor overlaps does a tensor
      // need all objects looked at again.
      for (size_t u : window) {
        // The object's distance for u can only have dropped to the gap
        // between u and the new tensor; when even that cannot beat u's
        // best, u's choice stands (an O(1) test before the O(log n) one).
        if (best_[u].object != object && best_[u].object != kNone) {
          const ByteRecord& q = records_[u];
          const bool overlaps = q.first_task <= r.last_task && r.first_task <= q.last_task;
          const TaskId gap = overlaps ? 0
                             : q.last_task < r.first_task ? r.first_task - q.last_task - 1
                                                          : q.first_task - r.last_task - 1;
          if (overlaps || std::tie(gap, object) > std::tie(best_[u].distance, best_[u].object)) {
            continue;
          }
        }
        const Choice c = Evaluate(u, object);
        if (best_[u].object == object) {
          if (c.object == kNone) {
            Refresh(u);
          } else {
            best_[u] = c;
          }
        } else if (c.Better(best_[u])) {
          best_[u] = c;
        }
      }
      refill();
    }
  }

  const std::vector<ByteRecord>& records_;
  std::vector<size_t> ids_;
  std::vector<Choice> best_;
  std::vector<uint64_t> sizes_;
  NearestFreeObject free_;
};

}  // namespace

ObjectsAssignment<uint64_t> PlanGreedyBySizeObjects(const std::vector<ByteRecord>& records) {
  return Planner(records).Run();
}

}  // namespace glpool
