#include "planner/offsets_exact.h"

#include <algorithm>
#include <chrono>
#include <numeric>

#include "planner/lower_bounds.h"
#include "planner/offsets_arena_search.h"
#include "planner/offsets_canonical_search.h"
#include "planner/offsets_greedy_by_size.h"
#include "planner/offsets_strip_packing.h"
#include "planner/time_sections.h"

namespace glpool {
namespace {

using Clock = PlannerClock;  // planner/budget.h: CPU time

// Beyond this many (tensor, section) pairs (64 MiB of lists) the search is
// not attempted: the incumbent comes back with the plain floor.
constexpr uint64_t kMaxCoverSlots = uint64_t{1} << 23;

// Per-tensor caps in units for an arena of `capacity` bytes; false if some
// tensor alone is larger.
bool CapsFor(const OffsetProblem& problem, uint64_t capacity, std::vector<uint64_t>* caps) {
  caps->resize(problem.bytes.size());
  for (size_t i = 0; i < problem.bytes.size(); ++i) {
    if (problem.bytes[i] > capacity) return false;
    (*caps)[i] = (capacity - problem.bytes[i]) / problem.alignment + problem.units[i].size;
  }
  return true;
}

// A plan can be pushed down until every tensor rests on another or on 0, so
// unit offsets are sums of unit sizes (multiples of their gcd g) and the
// arena is k * step + bytes_i for some tensor i, step = g * alignment. Only
// such capacities are worth probing (between two of them the caps are the
// same), and the optimum is one of them, so proven floors round up to one.
class CapacityGrid {
 public:
  explicit CapacityGrid(const OffsetProblem& problem) {
    uint64_t g = 0;
    for (const ByteRecord& r : problem.units) g = std::gcd(g, r.size);
    step_ = std::max<uint64_t>(g, 1) * problem.alignment;
    for (uint64_t b : problem.bytes) residues_.push_back(b % step_);
    std::sort(residues_.begin(), residues_.end());
    residues_.erase(std::unique(residues_.begin(), residues_.end()), residues_.end());
    if (residues_.empty()) residues_.push_back(0);
  }

  // The smallest grid capacity >= x (saturating at the top of uint64_t).
  uint64_t AtOrAbove(uint64_t x) const {
    const uint64_t base = x - x % step_;
    uint64_t best = UINT64_MAX;
    for (uint64_t r : residues_) {
      uint64_t c = base + r;
      if (c < x) c = c > UINT64_MAX - step_ ? UINT64_MAX : c + step_;
      best = std::min(best, c);
    }
    return best;
  }

  // The largest grid capacity <= x, or 0 if there is none.
  uint64_t AtOrBelow(uint64_t x) const {
    const uint64_t base = x - x % step_;
    uint64_t best = 0;
    for (uint64_t r : residues_) {
      if (base + r <= x) {
        best = std::max(best, base + r);
      } else if (base >= step_) {
        best = std::max(best, base - step_ + r);
      }
    }
    return best;
  }

 private:
  uint64_t step_ = 1;
  std::vector<uint64_t> residues_;
};

// The search keeps, per section, the tensors live there: one slot per
// (tensor, section) pair.
uint64_t CoverSlots(const std::vector<ByteRecord>& units) {
  const TimeSections sections = BuildTimeSections(units);
  uint64_t slots = 0;
  for (size_t i = 0; i < units.size(); ++i) {
    if (units[i].size != 0) slots += sections.last[i] - sections.first[i] + 1;
  }
  return slots;
}

// Node guard for each canonical-search slice (the deadline is the real bound).
constexpr uint64_t kCanonicalNodeGuard = uint64_t{1} << 40;
constexpr double kFirstSliceSeconds = 0.01;

// One capacity probe by a portfolio of the two complete searches: neither
// dominates (the skyline search takes milliseconds where the canonical one
// takes seconds, and the reverse), so they alternate in slices that double,
// each slice a fresh start. The answer of either is final; the loss against
// the better one alone is at most about 4x.
SearchOutcome Decide(ArenaSearch* skyline, CanonicalSearch* canonical, bool use_canonical,
                     const std::vector<uint64_t>& caps, Clock::time_point deadline,
                     std::vector<uint64_t>* found, uint64_t* nodes) {
  double slice = kFirstSliceSeconds;
  for (int round = 0; round < 64; ++round) {
    for (int engine = 0; engine < 2; ++engine) {
      if (engine == 1 && !use_canonical) continue;
      const Clock::time_point now = Clock::now();
      if (now >= deadline) return SearchOutcome::kTimedOut;
      Clock::time_point until = now + std::chrono::duration_cast<Clock::duration>(
                                          std::chrono::duration<double>(slice));
      if (!use_canonical || until > deadline) until = deadline;
      const SearchOutcome outcome =
          engine == 0 ? skyline->Solve(caps, until, found)
                      : canonical->Solve(caps, until, kCanonicalNodeGuard, found);
      *nodes += engine == 0 ? skyline->nodes() : canonical->nodes();
      if (outcome != SearchOutcome::kTimedOut) return outcome;
    }
    slice *= 2;
  }
  return SearchOutcome::kTimedOut;
}

}  // namespace

ExactResult SolveOffsetsExact(const OffsetProblem& problem, const std::vector<uint64_t>* incumbent,
                              double budget_seconds) {
  const Clock::time_point start = Clock::now();
  const Clock::time_point deadline =
      start + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(budget_seconds));

  std::vector<ByteRecord> byte_records = problem.units;
  for (size_t i = 0; i < byte_records.size(); ++i) byte_records[i].size = problem.bytes[i];

  ExactResult result;
  result.proven_lower_bound = OffsetsLowerBound(byte_records);
  if (incumbent != nullptr) {
    result.unit_offsets = *incumbent;
  } else {
    result.unit_offsets = OffsetsGreedyBySize(problem.units);
    const Deadline strip_deadline(deadline);
    std::vector<uint64_t> strip = OffsetsStripPacking(problem.units, &strip_deadline);
    if (!strip.empty() && ArenaBytes(problem, strip) < ArenaBytes(problem, result.unit_offsets)) {
      result.unit_offsets = std::move(strip);
    }
  }
  result.total_bytes = ArenaBytes(problem, result.unit_offsets);

  const CapacityGrid grid(problem);
  if (CoverSlots(problem.units) > kMaxCoverSlots) {
    result.proven_lower_bound = std::min(grid.AtOrAbove(result.proven_lower_bound), result.total_bytes);
    return result;
  }
  result.proven_lower_bound = grid.AtOrAbove(result.proven_lower_bound);
  ArenaSearch search(problem.units);
  const bool use_canonical = problem.units.size() <= kMaxCanonicalTensors;
  CanonicalSearch canonical(problem.units);
  std::vector<uint64_t> caps, found;
  bool first = true;
  uint64_t lo = result.proven_lower_bound;  // bisection floor, >= the proven one
  while (result.proven_lower_bound < result.total_bytes) {
    const Clock::time_point now = Clock::now();
    if (now >= deadline) break;
    uint64_t hi = grid.AtOrBelow(result.total_bytes - 1);
    if (hi < lo) {
      // The bisection closed on timed-out probes: another pass from the
      // proven floor gives them what time is left.
      lo = result.proven_lower_bound;
      hi = grid.AtOrBelow(result.total_bytes - 1);
      if (hi < lo) break;
    }
    const uint64_t capacity = first ? lo : std::max(lo, grid.AtOrBelow(lo + (hi - lo) / 2));
    // The floor itself is the usual answer on real networks and on hard
    // packings alike, but when it is not, proving so can take long: it gets
    // a quarter of the budget, later
    // probes a third of what is left, so one hard capacity never eats it all.
    const Clock::time_point probe_deadline = now + (deadline - now) / (first ? 2 : 3);
    first = false;
    ++result.probes;
    SearchOutcome outcome = SearchOutcome::kInfeasible;
    if (CapsFor(problem, capacity, &caps)) {
      outcome = Decide(&search, &canonical, use_canonical, caps, probe_deadline, &found, &result.nodes);
    }
    if (outcome == SearchOutcome::kFound) {
      result.unit_offsets = found;
      result.total_bytes = ArenaBytes(problem, found);
      result.improved = true;
    } else {
      // Infeasible at C is infeasible at every smaller C too.
      if (outcome == SearchOutcome::kInfeasible) {
        result.proven_lower_bound = std::max(result.proven_lower_bound, grid.AtOrAbove(capacity + 1));
      }
      lo = grid.AtOrAbove(capacity + 1);
    }
  }
  result.proven_lower_bound = std::min(result.proven_lower_bound, result.total_bytes);
  return result;
}

}  // namespace glpool
