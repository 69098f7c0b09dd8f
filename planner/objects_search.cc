#include "planner/objects_search.h"

#include <algorithm>
#include <numeric>
#include <unordered_map>

#include "planner/lower_bounds.h"

namespace glpool {
namespace {

// The search recurses once per tensor; past this it would risk the stack.
constexpr size_t kMaxTensors = 20000;

struct StateKey {
  uint64_t a, b;
  bool operator==(const StateKey& o) const { return a == o.a && b == o.b; }
};
struct StateKeyHash {
  size_t operator()(const StateKey& k) const { return static_cast<size_t>(k.a ^ (k.b * 31)); }
};

class BranchAndBound {
 public:
  // `profile`: object sizes, largest first, that every plan's sorted sizes
  // are bounded below by (the positional maxima, or a candidate profile).
  BranchAndBound(const std::vector<ByteRecord>& records, std::vector<uint64_t> profile)
      : r_(records), profile_(std::move(profile)) {
    order_.resize(records.size());
    std::iota(order_.begin(), order_.end(), 0);
    std::sort(order_.begin(), order_.end(), [&](size_t a, size_t b) {
      if (r_[a].first_task != r_[b].first_task) return r_[a].first_task < r_[b].first_task;
      if (r_[a].size != r_[b].size) return r_[a].size > r_[b].size;
      return a < b;
    });
    ids_.assign(records.size(), 0);
  }

  SearchResult Run(const SearchOptions& options) {
    max_nodes_ = options.max_nodes;
    deadline_ = options.deadline;
    uint64_t floor = ProfileTotal();  // no plan totals less than this
    uint64_t best = options.incumbent_total != 0 ? options.incumbent_total : UINT64_MAX;
    if (best == UINT64_MAX) {
      // No incumbent: the first dive (best fit in start order) gives one.
      Probe(UINT64_MAX);
      if (found_) best = best_total_;
    }
    // Probes ask "is there a plan of total <= mid?". The first asks for the
    // lower bound itself; later ones bisect between the proven floor and the
    // best plan. A failed probe proves a floor (the least bound among its
    // cut branches), which may jump past mid.
    bool first = true;
    while (floor < best && !out_of_nodes_) {
      const uint64_t mid = first ? floor : floor + (best - floor) / 2;
      first = false;
      const uint64_t proven = Probe(mid + 1);
      if (stop_) {
        best = best_total_;
      } else if (!out_of_nodes_) {
        floor = std::max(mid + 1, proven);
      }
    }
    SearchResult result;
    result.found = found_;
    result.proven_optimal = floor >= best;
    result.proven_floor = std::min(floor, best);
    result.ids = best_ids_;
    result.total = best_total_;
    result.nodes = nodes_;
    return result;
  }

  // Is there a plan whose sorted object sizes are each at most the profile's
  // (so of total at most the profile's sum)? False also when the budget ran
  // out first.
  bool Fits(uint64_t max_nodes, const Deadline* deadline) {
    max_nodes_ = max_nodes;
    deadline_ = deadline;
    Probe(ProfileTotal() + 1);
    return stop_;
  }

  const std::vector<size_t>& best_ids() const { return best_ids_; }
  uint64_t best_total() const { return best_total_; }
  uint64_t nodes() const { return nodes_; }

 private:
  uint64_t ProfileTotal() const {
    uint64_t total = 0;
    for (uint64_t p : profile_) total += p;
    return total;
  }

  // Looks for a plan of total < target; returns a floor under every
  // completion when none is found (meaningless when stopped or out of nodes).
  uint64_t Probe(uint64_t target) {
    target_ = target;
    stop_ = false;
    return Dive(0);
  }

  // sum_k max(c_k, P_k) over the current object sizes c (sorted_, largest
  // first) and the profile P.
  uint64_t Bound() const {
    uint64_t total = 0;
    const size_t n = std::max(sorted_.size(), profile_.size());
    for (size_t k = 0; k < n; ++k) {
      const uint64_t c = k < sorted_.size() ? sorted_[k] : 0;
      const uint64_t p = k < profile_.size() ? profile_[k] : 0;
      total += std::max(c, p);
    }
    return total;
  }

  void SortedReplace(uint64_t old_size, uint64_t new_size) {
    *std::find(sorted_.begin(), sorted_.end(), old_size) = new_size;
    std::sort(sorted_.begin(), sorted_.end(), std::greater<uint64_t>());
  }

  // Partial plans with the same objects (size, and busy-until for the busy
  // ones) at the same depth have the same completions.
  StateKey Key(size_t depth, TaskId now) {
    state_.clear();
    for (size_t o = 0; o < size_.size(); ++o) {
      state_.push_back({size_[o], busy_until_[o] >= now ? busy_until_[o] : -1});
    }
    std::sort(state_.begin(), state_.end());
    uint64_t a = 1469598103934665603ull ^ depth, b = 0x9e3779b97f4a7c15ull + depth;
    auto mix = [&](uint64_t v) {
      a = (a ^ v) * 1099511628211ull;
      b = (b + v) * 0xff51afd7ed558ccdull;
      b ^= b >> 33;
    };
    for (const auto& [size, busy] : state_) {
      mix(size);
      mix(static_cast<uint64_t>(busy));
    }
    return {a, b};
  }

  uint64_t Dive(size_t depth) {
    if (out_of_nodes_ || stop_) return 0;
    if (++nodes_ > max_nodes_ || (deadline_ != nullptr && deadline_->Expired())) {
      out_of_nodes_ = true;
      return 0;
    }
    if (depth == order_.size()) {
      uint64_t total = 0;
      for (uint64_t s : size_) total += s;
      if (total < target_) {
        found_ = true;
        stop_ = true;
        best_total_ = total;
        best_ids_ = ids_;
      }
      return total;
    }
    const size_t t = order_[depth];
    const uint64_t s = r_[t].size;
    const TaskId first = r_[t].first_task;
    const StateKey key = Key(depth, first);
    auto memo = floors_.find(key);
    if (memo != floors_.end() && memo->second >= target_) return memo->second;

    // Free objects of equal size have identical futures: one branch per
    // distinct size, fitting ones smallest first, growing ones largest
    // first, then a new object (SIZE_MAX).
    std::vector<size_t> options, grow;
    for (size_t o = 0; o < size_.size(); ++o) {
      if (busy_until_[o] >= first) continue;
      std::vector<size_t>& list = size_[o] >= s ? options : grow;
      bool seen = false;
      for (size_t p : list) seen |= size_[p] == size_[o];
      if (!seen) list.push_back(o);
    }
    std::sort(options.begin(), options.end(),
              [&](size_t a, size_t b) { return size_[a] < size_[b]; });
    std::sort(grow.begin(), grow.end(), [&](size_t a, size_t b) { return size_[a] > size_[b]; });
    options.insert(options.end(), grow.begin(), grow.end());
    options.push_back(SIZE_MAX);

    uint64_t floor = UINT64_MAX;
    for (size_t o : options) {
      uint64_t child;
      if (o == SIZE_MAX) {
        size_.push_back(s);
        busy_until_.push_back(r_[t].last_task);
        sorted_.insert(
            std::upper_bound(sorted_.begin(), sorted_.end(), s, std::greater<uint64_t>()), s);
        child = Bound();
        if (child < target_) {
          ids_[t] = size_.size() - 1;
          child = Dive(depth + 1);
        }
        sorted_.erase(std::find(sorted_.begin(), sorted_.end(), s));
        size_.pop_back();
        busy_until_.pop_back();
      } else {
        const uint64_t old_size = size_[o];
        const TaskId old_busy = busy_until_[o];
        if (s > old_size) {
          SortedReplace(old_size, s);
          size_[o] = s;
        }
        child = Bound();
        if (child < target_) {
          busy_until_[o] = r_[t].last_task;
          ids_[t] = o;
          child = Dive(depth + 1);
          busy_until_[o] = old_busy;
        }
        if (s > old_size) {
          SortedReplace(s, old_size);
          size_[o] = old_size;
        }
      }
      if (out_of_nodes_ || stop_) return 0;
      floor = std::min(floor, child);
    }
    // Fully explored without a plan under the target: every completion
    // costs at least `floor` (>= target).
    // The memo only saves work: past its cap (long certificate searches)
    // new states go unremembered instead of growing memory without end.
    auto known = floors_.find(key);
    if (known != floors_.end()) {
      known->second = std::max(known->second, floor);
    } else if (floors_.size() < kMaxMemoStates) {
      floors_.emplace(key, floor);
    }
    return floor;
  }

  const std::vector<ByteRecord>& r_;
  const std::vector<uint64_t> profile_;
  std::vector<size_t> order_;
  std::vector<size_t> ids_;
  std::vector<uint64_t> size_;      // per object, current
  std::vector<TaskId> busy_until_;  // per object, last task of its last tensor
  std::vector<uint64_t> sorted_;    // size_, largest first
  uint64_t target_ = UINT64_MAX;
  uint64_t best_total_ = 0;
  std::vector<size_t> best_ids_;
  uint64_t nodes_ = 0;
  uint64_t max_nodes_ = 0;
  const Deadline* deadline_ = nullptr;
  bool found_ = false;
  bool stop_ = false;
  bool out_of_nodes_ = false;
  static constexpr size_t kMaxMemoStates = 2000000;
  std::unordered_map<StateKey, uint64_t, StateKeyHash> floors_;  // proven floors
  std::vector<std::pair<uint64_t, TaskId>> state_;
};

}  // namespace

SearchResult SearchObjects(const std::vector<ByteRecord>& records, const SearchOptions& options) {
  if (records.size() > kMaxTensors) return {};
  return BranchAndBound(records, PositionalMaxima(records)).Run(options);
}

SearchResult SearchProfiles(const std::vector<ByteRecord>& records,
                            const ProfileSearchOptions& options) {
  SearchResult result;
  if (records.size() > kMaxTensors) return result;
  const std::vector<uint64_t> maxima = PositionalMaxima(records);
  uint64_t lower = 0;
  for (uint64_t l : maxima) lower += l;
  std::vector<uint64_t> sizes;
  for (const ByteRecord& r : records) sizes.push_back(r.size);
  std::sort(sizes.begin(), sizes.end());
  sizes.erase(std::unique(sizes.begin(), sizes.end()), sizes.end());
  uint64_t cap = options.incumbent_total != 0 ? options.incumbent_total : UINT64_MAX;
  // Family k < maxima.size(): raise the k-th maximum to v; the last family:
  // add one object of size v. Within a family a larger v only loosens the
  // profile, so "fits" is monotone in v: binary search for the smallest v
  // that fits among those that would beat the best plan so far.
  for (size_t family = 0; family <= maxima.size(); ++family) {
    const bool add = family == maxima.size();
    if (!add && family > 0 && maxima[family] == maxima[family - 1]) continue;
    const uint64_t base = add ? 0 : maxima[family];
    size_t lo = std::upper_bound(sizes.begin(), sizes.end(), base) - sizes.begin();
    size_t hi = lo;
    while (hi < sizes.size() && lower + sizes[hi] - base < cap) ++hi;
    while (lo < hi && result.nodes < options.total_nodes &&
           (options.deadline == nullptr || !options.deadline->ExpiredNow())) {
      const size_t mid = lo + (hi - lo) / 2;
      std::vector<uint64_t> profile = maxima;
      if (add) {
        profile.push_back(sizes[mid]);
      } else {
        profile[family] = sizes[mid];
      }
      std::sort(profile.begin(), profile.end(), std::greater<uint64_t>());
      BranchAndBound search(records, profile);
      const bool fits =
          search.Fits(std::min(options.nodes_per_profile, options.total_nodes - result.nodes),
                      options.deadline);
      result.nodes += search.nodes();
      if (fits) {
        result.found = true;
        result.ids = search.best_ids();
        result.total = search.best_total();
        cap = std::min(cap, result.total);
        hi = mid;
      } else {
        lo = mid + 1;  // does not fit (or unknown): only larger v can
      }
    }
  }
  return result;
}

}  // namespace glpool
