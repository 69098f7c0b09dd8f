#include "planner/offsets_auto.h"

#include <algorithm>
#include <cstddef>

#include "planner/budget.h"
#include "planner/lower_bounds.h"
#include "planner/objects_planner.h"
#include "planner/offsets_exact.h"
#include "planner/offsets_greedy_by_breadth.h"
#include "planner/offsets_greedy_by_size.h"
#include "planner/offsets_greedy_in_order.h"
#include "planner/offsets_objects_to_offsets.h"
#include "planner/offsets_peak_first.h"
#include "planner/offsets_repair.h"
#include "planner/offsets_strip_packing.h"
#include "planner/verifier.h"

namespace glpool {
namespace {

// Rounds of the repair portfolio at most (each doubles the slice).
constexpr int kMaxRepairRounds = 16;

}  // namespace

StatusOr<AutoResult> SolveOffsetsAuto(const OffsetProblem& problem, double budget_seconds) {
  const Deadline deadline(budget_seconds);
  std::vector<ByteRecord> byte_records = problem.units;
  for (size_t i = 0; i < byte_records.size(); ++i) byte_records[i].size = problem.bytes[i];
  const uint64_t lower_bound = OffsetsLowerBound(byte_records);

  AutoResult best;
  bool have = false;
  // Keeps `offsets` when it is a smaller verified plan (an empty vector is a
  // member the deadline cut off). True when nothing can beat the best plan
  // any more, or no time is left to try.
  auto consider = [&](OffsetStrategy strategy, std::vector<uint64_t> offsets) {
    if (offsets.size() == problem.units.size()) {
      const uint64_t total = ArenaBytes(problem, offsets);
      const OffsetsAssignment plan{offsets, ArenaUnits(problem.units, offsets)};
      if ((!have || total < best.total_bytes) && VerifyOffsets(problem.units, plan).ok()) {
        best.unit_offsets = std::move(offsets);
        best.chosen = strategy;
        best.total_bytes = total;
        best.repaired = false;
        have = true;
      }
    }
    return (have && best.total_bytes <= lower_bound) || deadline.ExpiredNow();
  };

  best.proven_lower_bound = lower_bound;
  auto finish = [&] {
    if (best.total_bytes <= lower_bound) best.proven_lower_bound = best.total_bytes;
    return best;
  };
  // The three greedy members always run (each near O(n log n) when few
  // tensors are live at once), whatever the budget: none wins on every set
  // (breadth on seed 1's random sets, size on seed 2's), and AUTO must
  // never be worse than the best of them. Then, only while time lasts:
  // strip packing (cut off by the deadline), then repair, which improves
  // whatever time it gets (anytime).
  struct Start {
    OffsetStrategy member;
    std::vector<uint64_t> offsets;
  };
  std::vector<Start> starts;
  auto run = [&](OffsetStrategy member, std::vector<uint64_t> offsets) {
    const bool stop = consider(member, offsets);
    const bool start = member == OffsetStrategy::kGreedyByBreadth ||
                       member == OffsetStrategy::kStripPacking ||
                       member == OffsetStrategy::kPeakFirst;
    if (start && offsets.size() == problem.units.size()) {
      // Strip packing's and peak first's plans first: the better starts on
      // most random sets.
      starts.insert(member == OffsetStrategy::kGreedyByBreadth ? starts.end() : starts.begin(),
                    Start{member, std::move(offsets)});
    }
    return stop;
  };
  const double budget_at_start = deadline.SecondsLeft();
  auto at_bound = [&] { return have && best.total_bytes <= lower_bound; };
  run(OffsetStrategy::kGreedyByBreadth, OffsetsGreedyByBreadth(problem.units));
  if (at_bound()) return finish();
  const double one_greedy_seconds = budget_at_start - deadline.SecondsLeft();
  // PEAK_FIRST next, when the budget holds more than four more greedy
  // members: it does about one's work before it looks at the clock, and
  // it is given all but the other two members' time (it stops early at the
  // bound; otherwise its rounds go on while time lasts, and their cost grows
  // with the set). At the bound nothing can beat it, so the other two need
  // not run: with a 2 s budget AUTO is there on random_50000 of seeds 1-10
  // in 0.34-1.17 s of CPU (bench/reports/planner_scale.md), where the best
  // greedy member stays 5.6-11% above (seeds 1-3).
  double peak_first_seconds = 0;
  if (deadline.SecondsLeft() > 4 * one_greedy_seconds) {
    const double before = deadline.SecondsLeft();
    PeakFirstResult peak_first =
        OffsetsPeakFirst(problem.units, Deadline((before - 2 * one_greedy_seconds) * 3 / 4));
    peak_first_seconds = before - deadline.SecondsLeft();
    run(OffsetStrategy::kPeakFirst, std::move(peak_first.offsets));
    if (at_bound()) return finish();
  }
  if (run(OffsetStrategy::kGreedyBySize, OffsetsGreedyBySize(problem.units)) ||
      run(OffsetStrategy::kGreedyInOrder, OffsetsGreedyInOrder(problem.units))) {
    return finish();
  }
  // What the three greedy members cost: the shared-objects member below
  // always runs greedy members of its own first, about as costly, and
  // EXACT sets up per-section lists first, so each starts only when at
  // least that much time is left (otherwise it would overrun the budget by
  // about that much).
  const double greedy_seconds = budget_at_start - deadline.SecondsLeft() - peak_first_seconds;
  // The same holds for strip packing and repair, which set up section lists
  // and indexes before they first look at the clock: with less time left
  // than the greedy members took, they could only overrun the budget
  // (random_100000 with 1 s ran 1,108-1,183 ms of CPU).
  if (deadline.SecondsLeft() <= greedy_seconds) return finish();
  if (run(OffsetStrategy::kStripPacking, OffsetsStripPacking(problem.units, &deadline))) {
    return finish();
  }
  // Repair every member's plan in turn, in slices that double (from 1/32
  // of the time left), each slice going on from where that plan's last one
  // stopped, for 3/4 of the time left; the rest stays for the members
  // below, which win on some small sets (on large sets, where they would
  // not fit in that rest, repair takes all of it). Which start repair lowers most
  // differs from set to set: on random_10000 seed 2 greedy by breadth's
  // (+9.3%) reaches the bound while strip packing's (+3.7%) stays there;
  // on seed 3 it is the other way round.
  {
    // The members after repair need more than greedy_seconds each; when a
    // quarter of the time left would not hold that, repair takes it all.
    const double left = deadline.SecondsLeft();
    const double repair_seconds = left / 4 > greedy_seconds ? left * 3 / 4 : left;
    const Deadline repair_deadline(repair_seconds);
    const uint64_t unit_bound = OffsetsLowerBound(problem.units);
    double slice = repair_seconds / 4;
    RepairOptions options;
    // A start whose slice lowered nothing leaves the turn (so a budget no
    // slice reaches still ends: each call is bounded by max_steps), and at
    // most kMaxRepairRounds rounds run.
    for (int round = 0; round < kMaxRepairRounds && !starts.empty(); ++round) {
      for (size_t k = 0; k < starts.size() && !repair_deadline.ExpiredNow();) {
        Start& start = starts[k];
        const uint64_t start_bytes = ArenaBytes(problem, start.offsets);
        const double seconds = std::min(slice, repair_deadline.SecondsLeft());
        ++options.seed;
        RepairOffsets(problem.units, &start.offsets, unit_bound, Deadline(seconds), options);
        const uint64_t repaired_bytes = ArenaBytes(problem, start.offsets);
        const uint64_t before = best.total_bytes;
        const bool stop = consider(start.member, start.offsets);
        // A repaired plan won (repair only ever lowers its start).
        if (best.total_bytes < before && repaired_bytes < start_bytes) best.repaired = true;
        if (stop) return finish();
        if (repaired_bytes < start_bytes) {
          ++k;
        } else {
          starts.erase(starts.begin() + static_cast<std::ptrdiff_t>(k));
        }
      }
      if (repair_deadline.ExpiredNow()) break;
      slice *= 2;
    }
  }
  if (deadline.SecondsLeft() > greedy_seconds) {
    GLPOOL_ASSIGN_OR_RETURN(std::vector<uint64_t> from_objects,
                            OffsetsFromSharedObjects(problem.units, deadline.SecondsLeft()));
    if (consider(OffsetStrategy::kObjectsToOffsets, std::move(from_objects))) return finish();
  }

  // EXACT builds per-section lists before its first deadline check, at a
  // cost that grows with the set like the greedy members': the same rule.
  if (deadline.SecondsLeft() <= greedy_seconds) return finish();
  const ExactResult exact = SolveOffsetsExact(problem, &best.unit_offsets, deadline.SecondsLeft());
  if (exact.total_bytes < best.total_bytes) {
    best.unit_offsets = exact.unit_offsets;
    best.chosen = OffsetStrategy::kExact;
    best.total_bytes = exact.total_bytes;
    best.repaired = false;
  }
  best.proven_lower_bound = std::max(lower_bound, exact.proven_lower_bound);
  return best;
}

}  // namespace glpool
