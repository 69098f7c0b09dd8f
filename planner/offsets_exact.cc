#include "planner/offsets_exact.h"

#include <algorithm>
#include <chrono>
#include <map>
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

// Node guard for each canonical-search call (the deadline is the real bound).
constexpr uint64_t kCanonicalNodeGuard = uint64_t{1} << 40;
// The first pass's slice per probe, as a share of the budget, and its floor.
constexpr double kFirstSliceShare = 1.0 / 64;
constexpr double kMinSliceSeconds = 0.002;

// One capacity probe by a portfolio of the two complete searches, neither
// of which dominates (the skyline one takes milliseconds where the canonical
// one takes seconds, and the reverse): the skyline search gets the first
// quarter of the slice, the canonical one the rest (the one that solves the
// hardest instances: MiniMalloc's E, F and I at their floor). Both resume from the last probe of the same
// capacity (SearchProgress), so probing a capacity again in a later pass
// goes on where it stopped. The answer of either is final.
class Prober {
 public:
  explicit Prober(const OffsetProblem& problem)
      : problem_(problem), skyline_(problem.units), canonical_(problem.units),
        use_canonical_(problem.units.size() <= kMaxCanonicalTensors) {}

  SearchOutcome Probe(uint64_t capacity, double seconds, Clock::time_point deadline,
                      std::vector<uint64_t>* found, uint64_t* nodes) {
    if (!CapsFor(problem_, capacity, &caps_)) return SearchOutcome::kInfeasible;
    const Clock::time_point now = Clock::now();
    // Slices beyond a day only mean "until the deadline" (and cannot
    // overflow the clock's nanoseconds).
    const Clock::time_point until =
        seconds >= 86400.0 ? deadline
                           : std::min(deadline, now + std::chrono::duration_cast<Clock::duration>(
                                                          std::chrono::duration<double>(seconds)));
    const Clock::time_point quarter = use_canonical_ ? now + (until - now) / 4 : until;
    Progress& progress = progress_[capacity];
    SearchOutcome outcome = skyline_.Solve(caps_, quarter, found, &progress.skyline);
    *nodes += skyline_.nodes();
    if (outcome != SearchOutcome::kTimedOut || !use_canonical_) return outcome;
    outcome = canonical_.Solve(caps_, until, kCanonicalNodeGuard, found, &progress.canonical);
    *nodes += canonical_.nodes();
    return outcome;
  }

 private:
  struct Progress {
    SearchProgress skyline;
    CanonicalProgress canonical;
  };
  const OffsetProblem& problem_;
  ArenaSearch skyline_;
  CanonicalSearch canonical_;
  const bool use_canonical_;
  std::vector<uint64_t> caps_;
  std::map<uint64_t, Progress> progress_;
};

}  // namespace

ExactResult SolveOffsetsExact(const OffsetProblem& problem, const std::vector<uint64_t>* incumbent,
                              double budget_seconds) {
  const Clock::time_point start = Clock::now();
  // A budget of a million seconds or more (infinity included) is "never".
  const Clock::time_point deadline =
      budget_seconds >= 1e6
          ? Clock::time_point::max()
          : start + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(budget_seconds));

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
  Prober prober(problem);
  std::vector<uint64_t> found;
  // Runs one probe and applies its answer.
  auto probe = [&](uint64_t capacity, double seconds) {
    ++result.probes;
    const SearchOutcome outcome = prober.Probe(capacity, seconds, deadline, &found, &result.nodes);
    if (outcome == SearchOutcome::kFound) {
      result.unit_offsets = found;
      result.total_bytes = ArenaBytes(problem, found);
      result.improved = true;
    } else if (outcome == SearchOutcome::kInfeasible) {
      // Infeasible at C is infeasible at every smaller C too.
      result.proven_lower_bound = std::max(result.proven_lower_bound, grid.AtOrAbove(capacity + 1));
    }
    return outcome;
  };
  auto open = [&] { return result.proven_lower_bound < result.total_bytes && Clock::now() < deadline; };
  double slice = std::max(kMinSliceSeconds, budget_seconds * kFirstSliceShare);
  double scan_seconds = 0;  // how long the last scan took
  while (open()) {
    // The floor first: it is the answer on real networks and on most of
    // MiniMalloc's hard instances, and proving it can take long, so it gets
    // three times the time of the last scan below (3/4 of the time).
    if (probe(result.proven_lower_bound, std::max(2 * slice, 3 * scan_seconds)) !=
        SearchOutcome::kTimedOut) {
      continue;
    }
    // Then a scan down from the incumbent at distances doubling from one
    // grid step: how hard a capacity is does not grow steadily as it
    // shrinks (a tighter one is often found faster), so a probe that times
    // out does not end the scan; a plan found goes on below it.
    const Clock::time_point scan_start = Clock::now();
    uint64_t distance = 1;
    while (open()) {
      const uint64_t capacity = result.total_bytes > distance
                                    ? grid.AtOrBelow(result.total_bytes - distance)
                                    : 0;
      if (capacity <= result.proven_lower_bound) break;
      const uint64_t gap = result.total_bytes - capacity;
      if (probe(capacity, slice) == SearchOutcome::kInfeasible) break;  // the floor rose to it
      distance = 2 * gap;
    }
    scan_seconds = std::chrono::duration<double>(Clock::now() - scan_start).count();
    slice *= 2;
  }
  result.proven_lower_bound = std::min(result.proven_lower_bound, result.total_bytes);
  return result;
}

}  // namespace glpool
