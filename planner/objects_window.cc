#include "planner/objects_window.h"

#include <algorithm>
#include <numeric>
#include <unordered_map>

namespace glpool {
namespace {

class WindowSearch {
 public:
  WindowSearch(const std::vector<ByteRecord>& records, std::vector<size_t>* ids,
               const WindowOptions& options)
      : r_(records), ids_(*ids), options_(options) {
    order_.resize(records.size());
    std::iota(order_.begin(), order_.end(), 0);
    std::sort(order_.begin(), order_.end(), [&](size_t a, size_t b) {
      if (r_[a].first_task != r_[b].first_task) return r_[a].first_task < r_[b].first_task;
      if (r_[a].size != r_[b].size) return r_[a].size > r_[b].size;
      return a < b;
    });
    Compact();
  }

  uint64_t Run() {
    const size_t n = order_.size();
    if (n == 0) return 0;
    const size_t w = std::max<size_t>(2, std::min(options_.window, n));
    const size_t step = std::max<size_t>(1, w / 2);
    for (int sweep = 0; sweep < options_.max_sweeps; ++sweep) {
      bool improved = false;
      for (size_t begin = 0; begin < n; begin += step) {
        if (total_nodes_ >= options_.total_nodes) return Total();
        if (options_.deadline != nullptr && options_.deadline->ExpiredNow()) return Total();
        const size_t end = std::min(n, begin + w);
        if (OptimizeWindow(begin, end)) improved = true;
        if (end == n) break;
      }
      if (!improved) break;
    }
    return Total();
  }

  // Re-places every tensor no larger than each of the few smallest object
  // sizes: the small objects are where plans near the bound differ.
  uint64_t RunBands(int bands) {
    std::vector<uint64_t> sizes(num_objects_, 0);
    for (size_t t = 0; t < ids_.size(); ++t) sizes[ids_[t]] = std::max(sizes[ids_[t]], r_[t].size);
    std::sort(sizes.begin(), sizes.end());
    sizes.erase(std::unique(sizes.begin(), sizes.end()), sizes.end());
    for (int b = 0; b < bands && b < static_cast<int>(sizes.size()); ++b) {
      std::vector<size_t> subset;
      for (size_t t : order_) {
        if (r_[t].size <= sizes[b]) subset.push_back(t);
      }
      OptimizeSubset(subset);
    }
    return Total();
  }

  const std::vector<size_t>& ids() const { return ids_; }

 private:
  void Compact() {
    std::vector<size_t> dense;
    size_t next = 0;
    for (size_t t = 0; t < ids_.size(); ++t) {
      if (ids_[t] >= dense.size()) dense.resize(ids_[t] + 1, SIZE_MAX);
      if (dense[ids_[t]] == SIZE_MAX) dense[ids_[t]] = next++;
      ids_[t] = dense[ids_[t]];
    }
    num_objects_ = next;
  }

  uint64_t Total() const {
    std::vector<uint64_t> size(num_objects_, 0);
    for (size_t t = 0; t < ids_.size(); ++t) size[ids_[t]] = std::max(size[ids_[t]], r_[t].size);
    uint64_t total = 0;
    for (uint64_t s : size) total += s;
    return total;
  }

  // True when `object`'s fixed tensors leave [first, last] free.
  bool FixedFree(size_t object, TaskId first, TaskId last) const {
    const auto& f = fixed_[object];  // sorted by first task, disjoint
    auto it =
        std::lower_bound(f.begin(), f.end(), first,
                         [](const std::pair<TaskId, TaskId>& x, TaskId v) { return x.first < v; });
    if (it != f.end() && it->first <= last) return false;
    if (it != f.begin() && std::prev(it)->second >= first) return false;
    return true;
  }

  bool OptimizeWindow(size_t begin, size_t end) {
    return OptimizeSubset(std::vector<size_t>(order_.begin() + begin, order_.begin() + end));
  }

  // `subset` is in order_'s order.
  bool OptimizeSubset(const std::vector<size_t>& subset) {
    window_ = subset;
    std::vector<char> in_window(r_.size(), 0);
    for (size_t t : window_) in_window[t] = 1;
    // Fixed part: objects that keep at least one tensor; the rest vanish and
    // come back as "new object" choices.
    std::vector<size_t> remap(num_objects_, SIZE_MAX);
    fixed_.clear();
    size_.clear();
    for (size_t t : order_) {
      if (in_window[t]) continue;
      size_t& m = remap[ids_[t]];
      if (m == SIZE_MAX) {
        m = fixed_.size();
        fixed_.emplace_back();
        size_.push_back(0);
      }
      fixed_[m].push_back({r_[t].first_task, r_[t].last_task});
      size_[m] = std::max(size_[m], r_[t].size);
    }
    base_objects_ = fixed_.size();
    busy_.assign(base_objects_, -1);
    uint64_t fixed_total = 0;
    for (uint64_t s : size_) fixed_total += s;
    // The current plan's total is the incumbent.
    target_ = Total();
    current_total_ = fixed_total;
    placed_.assign(window_.size(), 0);
    best_placed_.clear();
    found_ = false;
    nodes_ = 0;
    floors_.clear();
    Dive(0);
    total_nodes_ += nodes_;
    if (!found_) return false;
    // Apply: window tensors go to best_placed_ (ids >= base_objects_ are new).
    std::vector<size_t> back(base_objects_);
    for (size_t o = 0; o < num_objects_; ++o) {
      if (remap[o] != SIZE_MAX) back[remap[o]] = o;
    }
    size_t next = num_objects_;
    std::vector<size_t> fresh;
    for (size_t k = 0; k < window_.size(); ++k) {
      const size_t o = best_placed_[k];
      if (o < base_objects_) {
        ids_[window_[k]] = back[o];
      } else {
        if (o - base_objects_ >= fresh.size()) fresh.resize(o - base_objects_ + 1, SIZE_MAX);
        if (fresh[o - base_objects_] == SIZE_MAX) fresh[o - base_objects_] = next++;
        ids_[window_[k]] = fresh[o - base_objects_];
      }
    }
    Compact();
    return true;
  }

  uint64_t Key(size_t depth, TaskId now) const {
    uint64_t h = 1469598103934665603ull ^ depth;
    auto mix = [&](uint64_t v) {
      h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
      h *= 1099511628211ull;
    };
    for (size_t o = 0; o < size_.size(); ++o) {
      mix(size_[o]);
      mix(static_cast<uint64_t>(busy_[o] >= now ? busy_[o] : -1));
    }
    return h;
  }

  // Returns a floor on the totals below this node (meaningless if cut off).
  uint64_t Dive(size_t depth) {
    if (++nodes_ > options_.nodes_per_window) return 0;
    if (options_.deadline != nullptr && options_.deadline->Expired()) {
      nodes_ = options_.nodes_per_window + 1;  // cut off, as out of nodes
      return 0;
    }
    if (depth == window_.size()) {
      if (current_total_ < target_) {
        found_ = true;
        target_ = current_total_;
        best_placed_ = placed_;
      }
      return current_total_;
    }
    const size_t t = window_[depth];
    const ByteRecord& r = r_[t];
    const uint64_t key = Key(depth, r.first_task);
    auto memo = floors_.find(key);
    if (memo != floors_.end() && memo->second >= target_) return memo->second;

    // Candidates: existing objects free for [first, last], fitting ones
    // smallest first, then growing ones by least growth; then a new object.
    std::vector<size_t> cand;
    for (size_t o = 0; o < size_.size(); ++o) {
      if (busy_[o] >= r.first_task) continue;
      if (o < base_objects_ && !FixedFree(o, r.first_task, r.last_task)) continue;
      cand.push_back(o);
    }
    std::sort(cand.begin(), cand.end(), [&](size_t a, size_t b) {
      const bool fa = size_[a] >= r.size, fb = size_[b] >= r.size;
      if (fa != fb) return fa;
      if (fa) return size_[a] < size_[b];
      return size_[a] > size_[b];
    });
    cand.push_back(SIZE_MAX);
    uint64_t floor = UINT64_MAX;
    for (size_t o : cand) {
      uint64_t child;
      if (o == SIZE_MAX) {
        child = current_total_ + r.size;
        if (child < target_) {
          size_.push_back(r.size);
          busy_.push_back(r.last_task);
          current_total_ += r.size;
          placed_[depth] = size_.size() - 1;
          child = Dive(depth + 1);
          current_total_ -= r.size;
          size_.pop_back();
          busy_.pop_back();
        }
      } else {
        const uint64_t old_size = size_[o];
        const TaskId old_busy = busy_[o];
        const uint64_t grow = r.size > old_size ? r.size - old_size : 0;
        child = current_total_ + grow;
        if (child < target_) {
          size_[o] = old_size + grow;
          busy_[o] = r.last_task;
          current_total_ += grow;
          placed_[depth] = o;
          child = Dive(depth + 1);
          current_total_ -= grow;
          size_[o] = old_size;
          busy_[o] = old_busy;
        }
      }
      if (nodes_ > options_.nodes_per_window) return 0;
      floor = std::min(floor, child);
    }
    uint64_t& stored = floors_[key];
    stored = std::max(stored, floor);
    return floor;
  }

  const std::vector<ByteRecord>& r_;
  std::vector<size_t> ids_;
  const WindowOptions options_;
  std::vector<size_t> order_;
  size_t num_objects_ = 0;
  uint64_t total_nodes_ = 0;
  // Per window:
  std::vector<size_t> window_;
  std::vector<std::vector<std::pair<TaskId, TaskId>>> fixed_;
  std::vector<uint64_t> size_;
  std::vector<TaskId> busy_;
  size_t base_objects_ = 0;
  uint64_t target_ = 0;
  uint64_t current_total_ = 0;
  std::vector<size_t> placed_, best_placed_;
  bool found_ = false;
  uint64_t nodes_ = 0;
  std::unordered_map<uint64_t, uint64_t> floors_;
};

}  // namespace

uint64_t ImproveByWindows(const std::vector<ByteRecord>& records, std::vector<size_t>* ids,
                          const WindowOptions& options) {
  WindowSearch search(records, ids, options);
  uint64_t total = search.Run();
  if (options.bands > 0) total = search.RunBands(options.bands);
  *ids = search.ids();
  return total;
}

}  // namespace glpool
