#include "planner/offsets_repair.h"

#include <algorithm>
#include <numeric>
#include <random>
#include <set>
#include <utility>

namespace glpool {
namespace {

class Repairer {
 public:
  Repairer(const std::vector<ByteRecord>& records, std::vector<uint64_t>* offsets,
           const RepairOptions& options)
      : records_(records), offsets_(*offsets), options_(options), rng_(options.seed) {
    for (size_t i = 0; i < records.size(); ++i) {
      if (records[i].size == 0) continue;
      by_first_.push_back(i);
      ends_.insert({End(i), i});
      longest_ = std::max(longest_, records[i].last_task - records[i].first_task);
    }
    mark_.assign(records.size(), 0);
    std::sort(by_first_.begin(), by_first_.end(), [&](size_t a, size_t b) {
      return records[a].first_task < records[b].first_task;
    });
  }

  uint64_t Run(uint64_t lower_bound, const Deadline& deadline) {
    uint64_t steps = 0;
    while (!ends_.empty() && Top() > lower_bound && steps < options_.max_steps &&
           !deadline.ExpiredNow()) {
      ++steps;
      Step(deadline);
    }
    return steps;
  }

 private:
  uint64_t End(size_t i) const { return offsets_[i] + records_[i].size; }
  uint64_t Top() const { return ends_.rbegin()->first; }

  // Calls f(i) for every non-empty tensor live somewhere in [a, b].
  template <typename F>
  void ForEachLive(TaskId a, TaskId b, F&& f) const {
    // Nothing starting before a - longest can reach a.
    const TaskId from = a - longest_;
    auto it = std::partition_point(by_first_.begin(), by_first_.end(),
                                   [&](size_t i) { return records_[i].first_task < from; });
    for (; it != by_first_.end() && records_[*it].first_task <= b; ++it) {
      if (records_[*it].last_task >= a) f(*it);
    }
  }

  // Window neighbourhood: free = living wholly inside [a, b]; fixed = the
  // rest of those live in it (they cross an edge).
  void GatherInside(TaskId a, TaskId b) {
    free_.clear();
    fixed_.clear();
    ForEachLive(a, b, [&](size_t i) {
      const ByteRecord& r = records_[i];
      (r.first_task >= a && r.last_task <= b ? free_ : fixed_).push_back(i);
    });
  }

  // Band neighbourhood: free = live in [a, b] with bytes in [y0, y1), and
  // `x`; fixed = every other tensor live during some free tensor's
  // lifetime. The top slab is the band from a level to the top; a band
  // lower down makes room for x inside the arena.
  void GatherBand(size_t x, TaskId a, TaskId b, uint64_t y0, uint64_t y1) {
    free_.clear();
    fixed_.clear();
    ++stamp_;
    TaskId lo = a, hi = b;
    ForEachLive(a, b, [&](size_t i) {
      if (i != x && (End(i) <= y0 || offsets_[i] >= y1)) return;
      free_.push_back(i);
      mark_[i] = stamp_;
      lo = std::min(lo, records_[i].first_task);
      hi = std::max(hi, records_[i].last_task);
    });
    ForEachLive(lo, hi, [&](size_t i) {
      if (mark_[i] != stamp_) fixed_.push_back(i);
    });
  }

  void Order(size_t x) {
    auto span = [&](size_t i) {
      return static_cast<uint64_t>(records_[i].last_task - records_[i].first_task + 1);
    };
    auto by = [&](auto key) {
      std::stable_sort(free_.begin(), free_.end(), [&](size_t p, size_t q) {
        const auto kp = key(p), kq = key(q);
        return kp != kq ? kp > kq : p < q;
      });
    };
    auto size = [&](size_t i) { return records_[i].size; };
    switch (rng_() % 4) {
      case 0:  // X first, then by size: give the top tensor the first choice
        by(size);
        std::rotate(free_.begin(), std::find(free_.begin(), free_.end(), x),
                    std::find(free_.begin(), free_.end(), x) + 1);
        break;
      case 1:
        by(size);
        break;
      case 2:
        by([&](size_t i) { return std::make_pair(span(i), size(i)); });
        break;
      default:
        by([&](size_t i) { return size(i) * span(i); });
        break;
    }
  }

  // Best fit for tensor t among `placed_` (kept sorted by offset, so one
  // pass finds the gaps: O(placed) per call, no sort); the offset.
  uint64_t BestFit(size_t t) const {
    const ByteRecord& r = records_[t];
    uint64_t best = 0, best_gap = UINT64_MAX, prev_end = 0;
    bool found = false;
    for (const Slot& j : placed_) {
      if (j.first > r.last_task || r.first_task > j.last) continue;
      if (j.offset > prev_end) {
        const uint64_t gap = j.offset - prev_end;
        if (gap >= r.size && gap < best_gap) {
          best_gap = gap;
          best = prev_end;
          found = true;
        }
      }
      prev_end = std::max(prev_end, j.end);
    }
    return found ? best : prev_end;
  }

  void Place(size_t t) {
    const Slot slot{offsets_[t], End(t), records_[t].first_task, records_[t].last_task};
    placed_.insert(std::upper_bound(placed_.begin(), placed_.end(), slot,
                                    [](const Slot& p, const Slot& q) { return p.offset < q.offset; }),
                   slot);
  }

  // One of the tensors at the top (up to 8 looked at).
  size_t PickTensor(uint64_t top) {
    tops_.clear();
    for (auto it = ends_.rbegin(); it != ends_.rend() && it->first == top && tops_.size() < 8;
         ++it) {
      tops_.push_back(it->second);
    }
    return tops_[rng_() % tops_.size()];
  }

  void Step(const Deadline& deadline) {
    const uint64_t top = Top();
    const size_t x = PickTensor(top);
    static constexpr TaskId kRadii[] = {0, 2, 8, 32, 128, 512};
    const TaskId radius = kRadii[rng_() % 6];
    const TaskId a = records_[x].first_task - radius, b = records_[x].last_task + radius;
    bool band = false;  // x goes to band_y0, the others by best fit
    uint64_t band_y0 = 0;
    const uint64_t kind = rng_() % 4;
    if (kind == 0) {
      GatherInside(a, b);
      if (free_.size() > options_.max_free && radius > 0) {
        GatherInside(records_[x].first_task, records_[x].last_task);
      }
    } else if (kind == 1) {
      // The top 1/64 to 1/4 of the arena.
      const uint64_t depth = top >> (2 + rng_() % 5);
      GatherBand(x, a, b, top - std::min(top, depth), UINT64_MAX);
    } else {
      // A band below the top as high as x (or twice), from 0 or from the
      // end of a tensor live beside x.
      const uint64_t size = records_[x].size;
      neighbours_.clear();
      ForEachLive(records_[x].first_task, records_[x].last_task, [&](size_t i) {
        if (i != x && End(i) + size < top) neighbours_.push_back(i);
      });
      if (!neighbours_.empty()) band_y0 = End(neighbours_[rng_() % neighbours_.size()]);
      GatherBand(x, records_[x].first_task, records_[x].last_task, band_y0, band_y0 + size * (1 + rng_() % 2));
      band = true;
    }
    if (free_.size() > options_.max_free) return;  // too big a window: try another
    Order(x);
    if (band) {
      std::rotate(free_.begin(), std::find(free_.begin(), free_.end(), x),
                  std::find(free_.begin(), free_.end(), x) + 1);
    }

    saved_.clear();
    for (size_t i : free_) saved_.push_back(offsets_[i]);
    size_t at_top_before = 0;
    for (size_t i : free_) at_top_before += End(i) == top;
    placed_.clear();
    for (size_t i : fixed_) {
      placed_.push_back({offsets_[i], End(i), records_[i].first_task, records_[i].last_task});
    }
    std::sort(placed_.begin(), placed_.end(),
              [](const Slot& p, const Slot& q) { return p.offset < q.offset; });
    bool ok = true;
    size_t at_top = 0;
    for (size_t k = 0; k < free_.size(); ++k) {
      if ((k & 63) == 63 && deadline.ExpiredNow()) {
        ok = false;
        break;
      }
      const size_t t = free_[k];
      offsets_[t] = band && k == 0 ? band_y0 : BestFit(t);
      at_top += End(t) == top;
      if (End(t) > top || at_top > at_top_before) {
        ok = false;
        break;
      }
      Place(t);
    }
    if (!ok) {
      for (size_t k = 0; k < free_.size(); ++k) offsets_[free_[k]] = saved_[k];
      return;
    }
    for (size_t k = 0; k < free_.size(); ++k) {
      const size_t t = free_[k];
      ends_.erase({saved_[k] + records_[t].size, t});
      ends_.insert({End(t), t});
    }
  }

  const std::vector<ByteRecord>& records_;
  std::vector<uint64_t>& offsets_;
  const RepairOptions options_;
  std::mt19937_64 rng_;
  std::vector<size_t> by_first_;          // non-empty tensors by first task
  TaskId longest_ = 0;                    // longest last - first
  std::set<std::pair<uint64_t, size_t>> ends_;  // (offset + size, tensor)
  // A placed tensor's bytes and lifetime, for BestFit's pass.
  struct Slot {
    uint64_t offset, end;
    TaskId first, last;
  };
  std::vector<size_t> free_, fixed_, neighbours_, tops_;
  std::vector<Slot> placed_;  // by offset
  std::vector<uint64_t> saved_;
  std::vector<uint64_t> mark_;  // == stamp_: free in this step
  uint64_t stamp_ = 0;
};

}  // namespace

uint64_t RepairOffsets(const std::vector<ByteRecord>& records, std::vector<uint64_t>* offsets,
                       uint64_t lower_bound, const Deadline& deadline,
                       const RepairOptions& options) {
  return Repairer(records, offsets, options).Run(lower_bound, deadline);
}

}  // namespace glpool
