#include "planner/offsets_skyline.h"

#include <utility>

namespace glpool {

Skyline::Skyline(std::vector<uint64_t> loads, bool undoable)
    : floor_(loads.size(), 0), load_(std::move(loads)), undoable_(undoable) {}

bool Skyline::LowestRunIn(size_t begin, size_t end, Run* run) const {
  size_t best = end;
  for (size_t s = begin; s < end; ++s) {
    if (load_[s] != 0 && (best == end || floor_[s] < floor_[best])) best = s;
  }
  if (best == end) return false;
  *run = RunFrom(best, end);
  return true;
}

Skyline::Run Skyline::RunFrom(size_t best, size_t end) const {
  const size_t n = floor_.size();
  const uint64_t f = floor_[best];
  size_t last = best;
  while (last + 1 < end && load_[last + 1] != 0 && floor_[last + 1] == f) ++last;
  Run run;
  run.begin = best;
  run.end = last;
  run.floor = f;
  // `best` is the leftmost minimum, so a non-wall left neighbour is higher.
  run.left = (best > 0 && load_[best - 1] != 0) ? floor_[best - 1] : kWall;
  run.right = (last + 1 < n && load_[last + 1] != 0) ? floor_[last + 1] : kWall;
  return run;
}

void Skyline::Place(size_t first, size_t last, uint64_t at, uint64_t size) {
  for (size_t s = first; s <= last; ++s) {
    if (undoable_) undo_.push_back({s, floor_[s], load_[s]});
    floor_[s] = at + size;
    load_[s] -= size;
  }
}

void Skyline::Raise(size_t first, size_t last, uint64_t height) {
  for (size_t s = first; s <= last; ++s) {
    if (undoable_) undo_.push_back({s, floor_[s], load_[s]});
    floor_[s] = height;
  }
}

void Skyline::Undo(size_t mark) {
  while (undo_.size() > mark) {
    const Saved& saved = undo_.back();
    floor_[saved.section] = saved.floor;
    load_[saved.section] = saved.load;
    undo_.pop_back();
  }
}

}  // namespace glpool
