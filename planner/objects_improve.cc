#include "planner/objects_improve.h"

#include <algorithm>

namespace glpool {
namespace {

using Object = std::vector<size_t>;  // tensors, sorted by first task

// Each round strictly lowers the total, so descent ends by itself; the cap
// bounds its time on adversarial record sets whose totals fall by a few
// bytes a round. Networks settle in fewer than ten rounds.
constexpr int kMaxDescentRounds = 64;

class LocalSearch {
 public:
  LocalSearch(const std::vector<ByteRecord>& records, const std::vector<size_t>& ids,
              const Deadline* deadline)
      : r_(records), deadline_(deadline) {
    size_t count = 0;
    for (size_t id : ids) count = std::max(count, id + 1);
    objects_.resize(count);
    for (size_t t = 0; t < ids.size(); ++t) objects_[ids[t]].push_back(t);
    Normalize(&objects_);
  }

  uint64_t Cost() const { return Cost(objects_); }

  std::vector<size_t> Ids() const {
    std::vector<size_t> ids(r_.size());
    for (size_t o = 0; o < objects_.size(); ++o) {
      for (size_t t : objects_[o]) ids[t] = o;
    }
    return ids;
  }

  void Run() { Descend(&objects_); }

 private:
  uint64_t Max(const Object& o) const {
    uint64_t m = 0;
    for (size_t t : o) m = std::max(m, r_[t].size);
    return m;
  }

  uint64_t Cost(const std::vector<Object>& objects) const {
    uint64_t total = 0;
    for (const Object& o : objects) total += Max(o);
    return total;
  }

  void SortObject(Object* o) const {
    std::sort(o->begin(), o->end(),
              [&](size_t a, size_t b) { return r_[a].first_task < r_[b].first_task; });
  }

  void Normalize(std::vector<Object>* objects) const {
    objects->erase(
        std::remove_if(objects->begin(), objects->end(), [](const Object& o) { return o.empty(); }),
        objects->end());
    for (Object& o : *objects) SortObject(&o);
  }

  bool Fits(const Object& o, size_t t) const {
    // o is sorted by first task and its ranges are disjoint, so also by last.
    auto it = std::lower_bound(o.begin(), o.end(), r_[t].first_task,
                               [&](size_t a, TaskId f) { return r_[a].first_task < f; });
    if (it != o.end() && r_[*it].first_task <= r_[t].last_task) return false;
    if (it != o.begin() && r_[*std::prev(it)].last_task >= r_[t].first_task) return false;
    return true;
  }

  void Insert(Object* o, size_t t) const {
    auto it = std::lower_bound(o->begin(), o->end(), r_[t].first_task,
                               [&](size_t a, TaskId f) { return r_[a].first_task < f; });
    o->insert(it, t);
  }

  // Best tail exchange between a and b; applies it and returns true when it
  // lowers the total.
  bool TryExchange(Object* a, Object* b) const {
    const size_t na = a->size(), nb = b->size();
    auto prefix_max = [&](const Object& o, std::vector<uint64_t>* pre, std::vector<uint64_t>* suf) {
      pre->assign(o.size() + 1, 0);
      suf->assign(o.size() + 1, 0);
      for (size_t k = 0; k < o.size(); ++k) (*pre)[k + 1] = std::max((*pre)[k], r_[o[k]].size);
      for (size_t k = o.size(); k-- > 0;) (*suf)[k] = std::max((*suf)[k + 1], r_[o[k]].size);
    };
    std::vector<uint64_t> pa, sa, pb, sb;
    prefix_max(*a, &pa, &sa);
    prefix_max(*b, &pb, &sb);
    const uint64_t before = pa[na] + pb[nb];
    uint64_t best = before;
    size_t bi = 0, bj = 0;
    for (size_t i = 0; i <= na; ++i) {
      // j >= lo: B's tail starts after A's head ends.
      size_t lo = 0;
      if (i > 0) {
        const TaskId end = r_[(*a)[i - 1]].last_task;
        lo = std::upper_bound(b->begin(), b->end(), end,
                              [&](TaskId e, size_t x) { return e < r_[x].first_task; }) -
             b->begin();
      }
      // j <= hi: B's head ends before A's tail starts.
      size_t hi = nb;
      if (i < na) {
        const TaskId begin = r_[(*a)[i]].first_task;
        hi = std::lower_bound(b->begin(), b->end(), begin,
                              [&](size_t x, TaskId f) { return r_[x].last_task < f; }) -
             b->begin();
      }
      for (size_t j = lo; j <= hi; ++j) {
        const uint64_t cost = std::max(pa[i], sb[j]) + std::max(pb[j], sa[i]);
        if (cost < best) {
          best = cost;
          bi = i;
          bj = j;
        }
      }
    }
    if (best >= before) return false;
    Object new_a(a->begin(), a->begin() + bi), new_b(b->begin(), b->begin() + bj);
    new_a.insert(new_a.end(), b->begin() + bj, b->end());
    new_b.insert(new_b.end(), a->begin() + bi, a->end());
    *a = std::move(new_a);
    *b = std::move(new_b);
    return true;
  }

  // Best single-tensor relocation out of object `from`.
  bool TryRelocate(std::vector<Object>* objects, size_t from) const {
    Object& src = (*objects)[from];
    uint64_t top = 0, second = 0;
    for (size_t t : src) {
      const uint64_t s = r_[t].size;
      if (s > top) {
        second = top;
        top = s;
      } else if (s > second) {
        second = s;
      }
    }
    int64_t best_gain = 0;
    size_t best_k = 0, best_to = 0;
    for (size_t k = 0; k < src.size(); ++k) {
      const uint64_t s = r_[src[k]].size;
      const uint64_t saved = s == top ? top - second : 0;
      for (size_t to = 0; to < objects->size(); ++to) {
        if (to == from) continue;
        const Object& dst = (*objects)[to];
        const uint64_t m = Max(dst);
        const uint64_t added = s > m ? s - m : 0;
        const int64_t gain = static_cast<int64_t>(saved) - static_cast<int64_t>(added);
        if (gain > best_gain && Fits(dst, src[k])) {
          best_gain = gain;
          best_k = k;
          best_to = to;
        }
      }
    }
    if (best_gain <= 0) return false;
    const size_t t = src[best_k];
    src.erase(src.begin() + best_k);
    Insert(&(*objects)[best_to], t);
    return true;
  }

  void Descend(std::vector<Object>* objects) const {
    bool improved = true;
    for (int round = 0; improved && round < kMaxDescentRounds && !Expired(); ++round) {
      improved = false;
      for (size_t a = 0; a < objects->size(); ++a) {
        for (size_t b = a + 1; b < objects->size(); ++b) {
          if (Expired()) break;
          if (TryExchange(&(*objects)[a], &(*objects)[b])) improved = true;
        }
      }
      for (size_t o = 0; o < objects->size(); ++o) {
        while (!Expired() && !(*objects)[o].empty() && TryRelocate(objects, o)) improved = true;
      }
      if (improved) {
        objects->erase(std::remove_if(objects->begin(), objects->end(),
                                      [](const Object& o) { return o.empty(); }),
                       objects->end());
      }
    }
  }

  // Moves can be heavy (a relocation scans every object), so read the clock each time.
  bool Expired() const { return deadline_ != nullptr && deadline_->ExpiredNow(); }

  const std::vector<ByteRecord>& r_;
  const Deadline* deadline_;
  std::vector<Object> objects_;
};

}  // namespace

uint64_t ImproveObjects(const std::vector<ByteRecord>& records, std::vector<size_t>* ids,
                        const Deadline* deadline) {
  LocalSearch search(records, *ids, deadline);
  search.Run();
  *ids = search.Ids();
  return search.Cost();
}

}  // namespace glpool
