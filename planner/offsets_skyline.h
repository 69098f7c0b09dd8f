// The skyline over time sections that STRIP_PACKING and EXACT build arenas
// on: tensors are rectangles whose x-extent (their time sections) is fixed and
// whose y (offset) is chosen; the skyline is, per section, the floor below
// which everything is decided.
//
//  - floor(s): nothing not yet placed may go below it in section s;
//  - load(s): total size of the not yet placed tensors live in s. A section
//    with load 0 is a *wall*: nothing will ever be placed there again, so it
//    separates runs;
//  - a *run* is a maximal stretch of consecutive non-wall sections with the
//    same floor; the lowest run is the leftmost run of minimal floor. The
//    strategies work on a run whose neighbours are higher (STRIP_PACKING on
//    the lowest, EXACT on any such): a tensor lying wholly inside it can sit
//    exactly on its floor, and if none does, the run is *raised* to its lower
//    neighbour (that space is wasted).
// Every change can be undone back to a Mark(), which is what lets EXACT
// backtrack cheaply.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

namespace glpool {

class Skyline {
 public:
  static constexpr uint64_t kWall = std::numeric_limits<uint64_t>::max();

  struct Run {
    size_t begin = 0;  // first section
    size_t end = 0;    // last section (inclusive)
    uint64_t floor = 0;
    uint64_t left = kWall;   // floor of the section before begin, kWall if a wall/edge
    uint64_t right = kWall;  // floor of the section after end, kWall if a wall/edge
  };

  // `loads[s]` = total size of all tensors live in section s; floors start at
  // 0. Without `undoable`, changes are not recorded (Mark/Undo do nothing),
  // which keeps a one-pass heuristic from building a history it never uses.
  Skyline(std::vector<uint64_t> loads, bool undoable);

  // The lowest run, or false when every section is a wall (all placed).
  bool LowestRun(Run* run) const { return LowestRunIn(0, floor_.size(), run); }

  // The same within sections [begin, end), which must be bounded by walls or
  // the edges (neighbours outside still count).
  bool LowestRunIn(size_t begin, size_t end, Run* run) const;

  // The run that starts at `best`, a leftmost lowest non-wall section of
  // [begin, end) found some other way (STRIP_PACKING keeps an index).
  Run RunFrom(size_t best, size_t end) const;

  // Places a tensor of `size` (> 0) over sections [first, last], all at floor
  // `at`: their floor becomes at + size, their load drops by size.
  void Place(size_t first, size_t last, uint64_t at, uint64_t size);

  // Raises the floor of sections [first, last] to `height`.
  void Raise(size_t first, size_t last, uint64_t height);

  uint64_t floor(size_t s) const { return floor_[s]; }
  uint64_t load(size_t s) const { return load_[s]; }
  size_t size() const { return floor_.size(); }

  size_t Mark() const { return undo_.size(); }
  void Undo(size_t mark);

 private:
  struct Saved {
    size_t section;
    uint64_t floor;
    uint64_t load;
  };
  std::vector<uint64_t> floor_;
  std::vector<uint64_t> load_;
  std::vector<Saved> undo_;
  bool undoable_;
};

}  // namespace glpool
