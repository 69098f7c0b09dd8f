// The decision procedure under EXACT: "can every tensor be placed so that
// tensor i ends at or below caps[i]?" -- answered by a complete depth-first
// search, or cut off by a deadline.
//
// It builds canonical solutions on a skyline over time sections (planner/
// offsets_skyline.h), in the spirit of MiniMalloc (Moffitt, ASPLOS 2023) and
// its section floors. Invariant: some solution (if any) keeps every placed
// tensor where it is and every unplaced one at or above the floors it spans.
//  - canonical placement: every solution can be pushed down until each
//    tensor rests on another or on 0. Take any *local-minimum run* L (a
//    maximal stretch of equal floor f whose neighbours are higher): either a
//    tensor lying wholly inside L sits on f, or nothing does and then the
//    band [f, h) over L is empty (h = lower neighbour), so L may be raised to
//    h. Branching on those moves is complete, for any such L;
//  - forced sections: if a section t of L has less slack (capacity - f -
//    load still to place) than any waste it could get were nothing to sit
//    on f there (a neighbour step, or the smallest tensor inside L ending
//    before or starting after t, on which the first tensor over t would
//    rest), a tensor covering t sits on f: branch on those alone, picking the
//    forced section with fewest candidates (fail first); none means failure;
//  - otherwise, symmetry: in L the tensor placed is the leftmost-starting one
//    on f, and the part of L left of it is raised at once; the raise of all
//    of L is the last branch;
//  - identical tensors (same sections, size and cap) go in index order;
//  - per-tensor caps (alignment lets the topmost tensor's padding stick out)
//    bound a section by the largest cap among its unplaced tensors, since
//    the topmost of them ends there;
//  - dominance: a raise that leaves an empty band at least as tall as some
//    tensor lying inside it is never needed (that tensor could drop to f);
//  - spatial inference: each unplaced tensor sits at or above the highest
//    floor it spans (kept incrementally: floors only rise); so in each
//    section the lowest of those plus the load still to place there must fit
//    the capacity, and each tensor its cap. Only sections sharing a tensor
//    with the last move are rechecked;
//  - decomposition: sections whose tensors are all placed (walls) split the
//    rest into independent components, solved one after another, so a failure
//    in one never re-searches another;
//  - restarts: the search is heavy-tailed (an ordering that solves one
//    instance in 1,000 nodes stalls on another), so it restarts with node
//    limits growing by 1.5x, alternating two run choices when nothing is
//    forced (least slack first; lowest, leftmost first) and cycling tensor
//    orderings (longest-lived, largest, largest area, shortest-lived first,
//    then seeded shuffles). An attempt that exhausts its tree without hitting
//    its limit proves infeasibility.
// Deterministic: node limits, not time, decide restarts; the deadline only
// cuts the whole search short. Each bullet carries the reason it keeps the
// search complete; tests/planner/offsets_exact_test.cc checks it against
// brute force.
#pragma once

#include <chrono>
#include <cstdint>
#include <utility>
#include <vector>

#include "planner/budget.h"
#include "planner/offsets_skyline.h"
#include "planner/time_sections.h"
#include "planner/usage_record.h"

namespace glpool {

enum class SearchOutcome { kFound, kInfeasible, kTimedOut };

// Where a series of Solve calls on the same caps stands, for searches that
// run attempts (orders) in turn with growing node limits: the attempt to run
// next and its limit. A call cut off by its deadline
// leaves the attempt it was in, so the next call goes on there, not at the
// first attempt: a search run in slices (EXACT's probes) loses at most its
// unfinished attempt each time. (The canonical search loses nothing:
// CanonicalProgress, offsets_canonical_search.h.)
struct SearchProgress {
  uint64_t limit = 0;  // 0: not started
  size_t attempt = 0;
};

class ArenaSearch {
 public:
  using Clock = PlannerClock;  // planner/budget.h: CPU time

  // `records` are in alignment units and well formed; they must outlive this.
  explicit ArenaSearch(const std::vector<ByteRecord>& records);

  // caps[i] bounds offset_i + size_i. On kFound, *offsets holds a placement
  // (zero-size records at 0).
  // `progress` (may be null: start afresh) resumes and records the attempts
  // of earlier calls with the same caps.
  SearchOutcome Solve(const std::vector<uint64_t>& caps, Clock::time_point deadline,
                      std::vector<uint64_t>* offsets, SearchProgress* progress = nullptr);

  // Search nodes visited by the last Solve, over all its attempts.
  uint64_t nodes() const { return nodes_; }

 private:
  struct Mark {
    size_t skyline, placed, lowest;
  };
  struct Choice {
    size_t run_begin;  // the local-minimum run to branch on
    size_t run_end;
    size_t forced;     // a section of it that must be covered on its floor, or none
  };

  void OrderCandidates(size_t attempt);
  // Places everything in sections [begin, end), one independent component
  // (a stretch between walls) after another; on failure leaves no trace.
  // [lo, hi] are the sections changed since the state was last checked.
  bool SolveSections(size_t begin, size_t end, size_t lo, size_t hi);
  // Branches at the lowest floor of the component [begin, end).
  bool SolveComponent(size_t begin, size_t end, size_t lo, size_t hi);
  // Picks the run to branch on among the local-minimum runs: the forced
  // section with fewest candidates, else the run holding the section with
  // least slack. False if a forced section has no candidate (node fails).
  bool ChooseRun(size_t begin, size_t end, Choice* choice);
  // The spatial inference, over the sections [lo, hi] may have affected.
  bool SpaceSuffices(size_t begin, size_t end, size_t lo, size_t hi) const;
  bool RaiseFits(size_t first, size_t last, uint64_t height) const;
  // The highest any stack in section s may reach: the largest cap among its
  // unplaced tensors (the topmost of them ends there), or the common cap.
  uint64_t SectionCap(size_t s) const;
  bool Fits(size_t i, uint64_t at) const;
  // Moves, undone by Unwind(Save()). They keep lowest_ up to date.
  void Place(size_t i, uint64_t at);
  void Raise(size_t first, size_t last, uint64_t height);
  void LiftOver(size_t first, size_t last, uint64_t height);
  Mark Save() const;
  void Unwind(const Mark& mark);

  const std::vector<ByteRecord>& records_;
  TimeSections sections_;
  std::vector<uint64_t> loads_;
  std::vector<size_t> tensors_;              // non-empty tensors by first section
  std::vector<std::vector<size_t>> starts_;  // per section, tensors starting there, by rank
  std::vector<std::vector<size_t>> cover_;   // per section, tensors live there
  std::vector<size_t> rank_;                 // try order of the current attempt
  // Per Solve:
  Skyline skyline_;
  const std::vector<uint64_t>* caps_ = nullptr;
  uint64_t section_cap_ = 0;  // the largest cap
  bool uniform_caps_ = true;  // all caps equal (always so without alignment)
  std::vector<size_t> twin_;  // previous identical tensor, or none
  std::vector<uint64_t> offsets_;
  std::vector<char> placed_;
  std::vector<size_t> placed_log_;
  // lowest_[i]: the highest floor over unplaced tensor i's sections, the
  // lowest offset it can still get; floors only rise, so moves just lift it.
  std::vector<uint64_t> lowest_;
  std::vector<std::pair<size_t, uint64_t>> lowest_log_;
  std::vector<int64_t> coverage_;  // scratch for ChooseRun
  std::vector<uint64_t> before_, after_;
  Clock::time_point deadline_;
  uint64_t nodes_ = 0;
  uint64_t node_limit_ = 0;
  size_t policy_ = 0;  // how ChooseRun picks a run when nothing is forced
  bool timed_out_ = false;
  bool cut_off_ = false;  // this attempt hit its node limit
};

}  // namespace glpool
