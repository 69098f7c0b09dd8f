// A second decision procedure under EXACT, complementary to ArenaSearch
// (planner/offsets_arena_search.h): "can every tensor be placed so that
// tensor i ends at or below caps[i]?", answered by a complete branch and
// bound over placements in canonical order, the scheme of MiniMalloc
// (Moffitt, ASPLOS 2023), written from the paper's description.
//  - every solution can be pushed down until each tensor rests on another or
//    on 0; list its tensors by (offset, rank): each sits at its *lowest
//    offset* (the top of the placed tensors it overlaps), and the list is
//    nondecreasing. So a node only branches on the unplaced tensors at their
//    lowest offsets, in (offset, rank) order, at or after the last placement
//    (canonical order);
//  - dominance: a tensor whose lowest offset is at or above the lowest top
//    (lowest offset + size) of another unplaced tensor is never placed next:
//    that other one fits wholly below it, and would come first canonically;
//  - "hatless" inference: a tensor placed with no unplaced tensor over its
//    live range is where some solution puts it, if any solution extends the
//    node; its siblings are not tried;
//  - section bound: later placements are at or above the current offset and
//    above every section's floor (the top of what is placed there), so in
//    each time section max(floor, offset) + the load still to place must fit
//    the capacity. Placing a candidate changes this only through its offset
//    (in its own sections it becomes offset + the load before), so it is
//    checked once per offset before placing, and the first offset that fails
//    ends the node (a higher one only tightens it);
//  - decomposition: a section boundary that no unplaced tensor crosses splits
//    the rest into independent parts, solved one after another;
//  - three searches over static rankings (by section load, lifetime in tasks
//    and area, in three priority orders; a part split off is ranked afresh
//    on the load left in it), run in turns with node quotas doubling each
//    round, as one ranking can be lost in a subtree another avoids. A search
//    that exhausts its tree proves infeasibility. Each goes on where it
//    stopped, across rounds and across calls (CanonicalProgress): it keeps the
//    branch it was in, and walks straight back down it (the search is
//    deterministic, and every candidate before the one on the branch was
//    refuted), so quotas and EXACT's time slices cost a walk down, not a
//    restart;
//  - the section bound and floors are kept on the sections where some tensor
//    ends only: every other section's tensors are a subset of the next such
//    section's.
// Cost: O(k log k + overlaps + sections) per node (k = unplaced tensors in
// the part), O(n^2) memory for the overlap lists; the recursion is as deep
// as the tensors, so callers keep n within kMaxCanonicalTensors. Each node
// checks the deadline; node limits bound each round.
#pragma once

#include <chrono>
#include <cstdint>
#include <vector>

#include "planner/offsets_arena_search.h"
#include "planner/time_sections.h"
#include "planner/usage_record.h"

namespace glpool {

// Beyond this many records EXACT does not run this search (recursion depth,
// quadratic overlap lists).
inline constexpr size_t kMaxCanonicalTensors = 4096;

// SearchProgress with each attempt's branch: an attempt stopped by its limit
// or the deadline keeps where it stopped, and goes straight back down it
// when its turn comes again, so slicing a search loses nothing.
struct CanonicalProgress : SearchProgress {
  struct Step {           // per open frame of a stopped attempt, root first:
    uint32_t choice = 0;  // the candidate it was trying
    uint32_t part = 0;    // the independent part it was in
  };
  struct Branch {
    std::vector<Step> path;  // where the attempt stopped (empty: at the start)
    uint64_t nodes = 0;      // nodes it has used, over all rounds
  };
  std::vector<Branch> branches;  // per attempt
};

class CanonicalSearch {
 public:
  using Clock = PlannerClock;  // planner/budget.h: CPU time

  // `records` are in alignment units and well formed; they must outlive this.
  explicit CanonicalSearch(const std::vector<ByteRecord>& records);

  // caps[i] bounds offset_i + size_i. On kFound, *offsets holds a placement
  // (zero-size records at 0). `node_cap` bounds the nodes of this call.
  // `progress` (may be null: start afresh) resumes and records the rounds of
  // earlier calls with the same caps (attempt = ranking of the round).
  SearchOutcome Solve(const std::vector<uint64_t>& caps, Clock::time_point deadline,
                      uint64_t node_cap, std::vector<uint64_t>* offsets,
                      CanonicalProgress* progress = nullptr);

  uint64_t nodes() const { return nodes_; }

 private:
  enum class Result { kFound, kNotFound, kAborted };
  struct Candidate {
    uint64_t offset;
    uint32_t rank;
    uint32_t tensor;
  };

  struct RankKey {
    uint64_t w, t;
    double a;
  };
  // Ranks `tensors` by heuristic_ (see the .cc).
  void Rank(const std::vector<uint32_t>& tensors);
  Result SolvePart(const std::vector<uint32_t>& part, size_t begin, size_t end);
  Result Search(const std::vector<uint32_t>& part, size_t begin, size_t end, uint64_t min_offset,
                uint32_t min_rank);
  // After tensor i is placed: the parts the sections [begin, end) split
  // into, or false when they do not split.
  bool Split(size_t i, size_t begin, size_t end, std::vector<size_t>* cuts);
  bool SectionsFit(size_t begin, size_t end, uint64_t offset) const;
  // Stops the attempt here (deadline, limit or cap), keeping the branch.
  Result Cut();
  // Still on the way back to where the attempt stopped last time: walking
  // down its branch, or solving again a part before the one it was in.
  bool GoingBack() const { return replay_paused_ || replay_pos_ < replay_.size(); }
  // Some unplaced tensor of section s can still start low enough for the
  // load left there (the scan stops at the first one).
  bool LowestFits(size_t s) const;

  const std::vector<ByteRecord>& records_;
  TimeSections sections_;
  std::vector<uint32_t> tensors_;                 // non-empty records
  std::vector<std::vector<uint32_t>> overlaps_;   // per tensor, the others live with it
  std::vector<std::vector<uint32_t>> cover_;      // per section, tensors live there
  std::vector<uint64_t> loads_;                   // per section, all sizes live there
  // Sections where some tensor ends: every other section's tensors are a
  // subset of the next one's, whose floor and load are at least as high, so
  // the section bound need only look at these.
  std::vector<char> maximal_;
  std::vector<uint32_t> maximal_list_;  // their indices, ascending
  std::vector<uint32_t> mpos_;          // mpos_[s]: maximal sections before s
  std::vector<uint32_t> rank_;
  std::vector<RankKey> keys_;
  size_t heuristic_ = 0;
  // Per Solve:
  const std::vector<uint64_t>* caps_ = nullptr;
  uint64_t capacity_ = 0;                // the largest cap: bounds every section
  std::vector<uint64_t> offset_;         // placed tensors' offsets
  std::vector<char> placed_;
  std::vector<uint64_t> lowest_;         // lowest offset of each unplaced tensor
  std::vector<uint64_t> floor_;          // per section (kept on maximal ones)
  std::vector<uint64_t> left_;           // per section, load still to place (maximal ones)
  std::vector<int32_t> crossed_;         // Split's scratch: crossings per boundary (differences)
  struct Undo {
    uint32_t index;
    uint64_t value;
  };
  std::vector<Undo> lowest_undo_;        // (tensor, lowest offset before a placement)
  std::vector<Undo> floor_undo_;         // (section, floor before a placement)
  std::vector<uint64_t> solution_;
  // Resuming an attempt cut off by the deadline (CanonicalProgress::Branch::path):
  std::vector<CanonicalProgress::Step> path_;      // the open frames' steps, root first
  std::vector<CanonicalProgress::Step> replay_;    // a cut-off path to walk back down
  size_t replay_pos_ = 0;                       // next step of replay_ to take
  bool replay_paused_ = false;                  // re-solving parts before the cut one
  std::vector<CanonicalProgress::Step> cut_path_;  // the path when the deadline struck
  Clock::time_point deadline_;
  uint64_t nodes_ = 0;   // new frames (frames redone going back are not counted)
  uint64_t visits_ = 0;  // all frames: paces the deadline checks
  uint64_t nodes_left_ = 0;
  bool timed_out_ = false;  // the deadline passed (ends the call)
  bool aborted_ = false;    // the attempt stopped (Cut)
};

}  // namespace glpool
