#include "planner/offsets_arena_search.h"

#include <algorithm>
#include <map>
#include <tuple>

namespace glpool {
namespace {

constexpr size_t kNone = static_cast<size_t>(-1);
constexpr uint64_t kFirstAttemptNodes = 1000;
constexpr uint64_t kMaxAttemptNodes = uint64_t{1} << 50;  // no overflow, however long the budget
constexpr size_t kOrders = 5;  // four fixed orderings, then a seeded shuffle

uint64_t SplitMix(uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

}  // namespace

ArenaSearch::ArenaSearch(const std::vector<ByteRecord>& records)
    : records_(records),
      sections_(BuildTimeSections(records)),
      loads_(SectionLoads(records, sections_)),
      starts_(sections_.count),
      cover_(sections_.count),
      rank_(records.size(), 0),
      skyline_({}, true) {
  for (size_t i = 0; i < records.size(); ++i) {
    if (records[i].size == 0) continue;
    starts_[sections_.first[i]].push_back(i);
    for (size_t s = sections_.first[i]; s <= sections_.last[i]; ++s) cover_[s].push_back(i);
  }
  for (const auto& list : starts_) tensors_.insert(tensors_.end(), list.begin(), list.end());
  coverage_.assign(sections_.count + 1, 0);
  before_.assign(sections_.count + 1, 0);
  after_.assign(sections_.count + 1, 0);
}

void ArenaSearch::OrderCandidates(size_t attempt) {
  std::vector<uint64_t> key(records_.size(), 0);
  for (size_t i : tensors_) {
    const uint64_t span = sections_.last[i] - sections_.first[i] + 1;
    const uint64_t size = records_[i].size;
    switch (attempt % kOrders) {
      case 0: key[i] = span; break;         // longest-lived first
      case 1: key[i] = size; break;         // largest first
      case 2: key[i] = size * span; break;  // largest area first
      case 3: key[i] = ~span; break;        // shortest-lived first
      default: key[i] = SplitMix(attempt * 0x100000001b3ull + i); break;
    }
  }
  std::vector<size_t> by_key = tensors_;
  std::stable_sort(by_key.begin(), by_key.end(), [&](size_t a, size_t b) {
    if (key[a] != key[b]) return key[a] > key[b];
    return records_[a].size > records_[b].size;
  });
  for (size_t r = 0; r < by_key.size(); ++r) rank_[by_key[r]] = r;
  for (auto& list : starts_) {
    std::sort(list.begin(), list.end(), [&](size_t a, size_t b) { return rank_[a] < rank_[b]; });
  }
}

SearchOutcome ArenaSearch::Solve(const std::vector<uint64_t>& caps, Clock::time_point deadline,
                                 std::vector<uint64_t>* offsets, SearchProgress* progress) {
  nodes_ = 0;
  timed_out_ = false;
  caps_ = &caps;
  deadline_ = deadline;
  section_cap_ = 0;
  uniform_caps_ = true;
  for (size_t i : tensors_) {
    if (records_[i].size > caps[i]) return SearchOutcome::kInfeasible;
    if (caps[i] != caps[tensors_.front()]) uniform_caps_ = false;
    section_cap_ = std::max(section_cap_, caps[i]);
  }
  for (uint64_t load : loads_) {
    if (load > section_cap_) return SearchOutcome::kInfeasible;
  }
  // Twins are interchangeable only if their caps agree too (with alignment,
  // equal sizes in units can still differ in bytes).
  std::map<std::tuple<size_t, size_t, uint64_t, uint64_t>, size_t> last_seen;
  twin_.assign(records_.size(), kNone);
  for (size_t i = 0; i < records_.size(); ++i) {
    if (records_[i].size == 0) continue;
    auto key = std::make_tuple(sections_.first[i], sections_.last[i], records_[i].size, caps[i]);
    auto it = last_seen.find(key);
    if (it != last_seen.end()) twin_[i] = it->second;
    last_seen[key] = i;
  }

  SearchProgress fresh;
  SearchProgress& at = progress != nullptr ? *progress : fresh;
  if (at.limit == 0) {
    at.limit = kFirstAttemptNodes;
    at.attempt = 0;
  }
  for (;; ++at.attempt) {
    const size_t attempt = at.attempt;
    const uint64_t budget = at.limit;
    OrderCandidates(attempt / 2);
    policy_ = attempt % 2;
    skyline_ = Skyline(loads_, true);
    offsets_.assign(records_.size(), 0);
    placed_.assign(records_.size(), 0);
    placed_log_.clear();
    lowest_.assign(records_.size(), 0);
    lowest_log_.clear();
    cut_off_ = false;
    node_limit_ = nodes_ + budget;
    const size_t all = sections_.count;
    if (all == 0 || SolveSections(0, all, 0, all - 1)) {
      *offsets = offsets_;
      return SearchOutcome::kFound;
    }
    if (timed_out_) return SearchOutcome::kTimedOut;
    if (!cut_off_) return SearchOutcome::kInfeasible;
    at.limit = std::min(budget + budget / 2, kMaxAttemptNodes);
  }
}

bool ArenaSearch::Fits(size_t i, uint64_t at) const {
  return at <= (*caps_)[i] - records_[i].size;
}

uint64_t ArenaSearch::SectionCap(size_t s) const {
  if (uniform_caps_) return section_cap_;
  uint64_t cap = 0;
  for (size_t i : cover_[s]) {
    if (!placed_[i]) cap = std::max(cap, (*caps_)[i]);
  }
  return cap;
}

bool ArenaSearch::RaiseFits(size_t first, size_t last, uint64_t height) const {
  for (size_t s = first; s <= last; ++s) {
    const uint64_t cap = SectionCap(s);
    if (height > cap || skyline_.load(s) > cap - height) return false;
  }
  return true;
}

bool ArenaSearch::SpaceSuffices(size_t begin, size_t end, size_t lo, size_t hi) const {
  if (hi < begin || lo >= end) return true;
  lo = std::max(lo, begin);
  hi = std::min(hi, end - 1);
  // Only sections sharing an unplaced tensor with the changed ones [lo, hi]
  // can have changed since the last check; those tensors are the only ones
  // whose lowest offset moved.
  size_t wlo = lo, whi = hi;
  auto touch = [&](size_t i) {
    wlo = std::min(wlo, sections_.first[i]);
    whi = std::max(whi, sections_.last[i]);
    return Fits(i, lowest_[i]);
  };
  for (size_t i : cover_[lo]) {
    if (!placed_[i] && !touch(i)) return false;
  }
  for (size_t s = lo + 1; s <= hi; ++s) {
    for (size_t i : starts_[s]) {
      if (!placed_[i] && !touch(i)) return false;
    }
  }
  for (size_t s = wlo; s <= whi; ++s) {
    const uint64_t load = skyline_.load(s);
    if (load == 0) continue;
    const uint64_t cap = SectionCap(s);
    if (load > cap) return false;
    const uint64_t room = cap - load;  // the lowest start that still fits
    bool fits = false;
    for (size_t i : cover_[s]) {
      if (!placed_[i] && lowest_[i] <= room) {
        fits = true;
        break;
      }
    }
    if (!fits) return false;
  }
  return true;
}

void ArenaSearch::LiftOver(size_t first, size_t last, uint64_t height) {
  auto lift = [&](size_t i) {
    if (placed_[i] || lowest_[i] >= height) return;
    lowest_log_.push_back({i, lowest_[i]});
    lowest_[i] = height;
  };
  for (size_t i : cover_[first]) lift(i);
  for (size_t s = first + 1; s <= last; ++s) {
    for (size_t i : starts_[s]) lift(i);
  }
}

void ArenaSearch::Raise(size_t first, size_t last, uint64_t height) {
  skyline_.Raise(first, last, height);
  LiftOver(first, last, height);
}

ArenaSearch::Mark ArenaSearch::Save() const {
  return {skyline_.Mark(), placed_log_.size(), lowest_log_.size()};
}

void ArenaSearch::Unwind(const Mark& mark) {
  skyline_.Undo(mark.skyline);
  while (placed_log_.size() > mark.placed) {
    placed_[placed_log_.back()] = 0;
    placed_log_.pop_back();
  }
  while (lowest_log_.size() > mark.lowest) {
    lowest_[lowest_log_.back().first] = lowest_log_.back().second;
    lowest_log_.pop_back();
  }
}

void ArenaSearch::Place(size_t i, uint64_t at) {
  skyline_.Place(sections_.first[i], sections_.last[i], at, records_[i].size);
  placed_[i] = 1;
  placed_log_.push_back(i);
  offsets_[i] = at;
  LiftOver(sections_.first[i], sections_.last[i], at + records_[i].size);
}

bool ArenaSearch::SolveSections(size_t begin, size_t end, size_t lo, size_t hi) {
  const Mark mark = Save();
  size_t s = begin;
  while (s < end) {
    if (skyline_.load(s) == 0) {
      ++s;
      continue;
    }
    size_t component_end = s + 1;
    while (component_end < end && skyline_.load(component_end) != 0) ++component_end;
    if (!SolveComponent(s, component_end, lo, hi)) {
      Unwind(mark);
      return false;
    }
    s = component_end;
  }
  return true;
}

bool ArenaSearch::ChooseRun(size_t begin, size_t end, Choice* choice) {
  choice->forced = kNone;
  choice->run_begin = kNone;
  size_t best_count = kNone;
  uint64_t best_score = Skyline::kWall;
  size_t s = begin;
  while (s < end) {
    const uint64_t f = skyline_.floor(s);
    size_t run_end = s;
    while (run_end + 1 < end && skyline_.floor(run_end + 1) == f) ++run_end;
    const uint64_t left = s > begin ? skyline_.floor(s - 1) : Skyline::kWall;
    const uint64_t right = run_end + 1 < end ? skyline_.floor(run_end + 1) : Skyline::kWall;
    const size_t run_begin = s;
    s = run_end + 1;
    if (left < f || right < f) continue;  // not a local minimum
    const uint64_t neighbour_step = std::min(left, right) - f;
    // Over the tensors inside the run: coverage_[t] counts those covering t
    // (as a difference array); before_[t] / after_[t] hold the smallest one
    // ending before t / starting after t.
    for (size_t t = run_begin; t <= run_end + 1; ++t) {
      coverage_[t] = 0;
      before_[t] = Skyline::kWall;
      after_[t] = Skyline::kWall;
    }
    for (size_t t = run_begin; t <= run_end; ++t) {
      for (size_t i : starts_[t]) {
        if (placed_[i] || sections_.last[i] > run_end) continue;
        const uint64_t size = records_[i].size;
        before_[sections_.last[i] + 1] = std::min(before_[sections_.last[i] + 1], size);
        if (t > run_begin) after_[t - 1] = std::min(after_[t - 1], size);
        if (!Fits(i, f)) continue;
        ++coverage_[t];
        --coverage_[sections_.last[i] + 1];
      }
    }
    for (size_t t = run_begin + 1; t <= run_end; ++t) before_[t] = std::min(before_[t], before_[t - 1]);
    for (size_t t = run_end; t-- > run_begin;) after_[t] = std::min(after_[t], after_[t + 1]);
    int64_t count = 0;
    for (size_t t = run_begin; t <= run_end; ++t) {
      count += coverage_[t];
      const uint64_t cap = SectionCap(t);
      if (f > cap || skyline_.load(t) > cap - f) return false;
      const uint64_t slack = cap - f - skyline_.load(t);
      // Policy 0 takes the run with the least slack (fail first), policy 1
      // the lowest run, leftmost: both complete, strong on different graphs.
      const uint64_t score = policy_ == 0 ? slack : f;
      if (score < best_score && best_count == kNone) {
        best_score = score;
        choice->run_begin = run_begin;
        choice->run_end = run_end;
      }
      // If nothing covering t sat on f, the lowest tensor covering t would
      // rest on a neighbour's floor or on a tensor inside the run that does
      // not cover t: at least `step` of t would be wasted.
      const uint64_t step = std::min({neighbour_step, before_[t], after_[t]});
      if (slack >= step) continue;
      if (count == 0) return false;  // t must be covered on f, and cannot be
      if (static_cast<size_t>(count) < best_count) {
        best_count = static_cast<size_t>(count);
        choice->forced = t;
        choice->run_begin = run_begin;
        choice->run_end = run_end;
      }
    }
  }
  return true;
}

bool ArenaSearch::SolveComponent(size_t begin, size_t end, size_t lo, size_t hi) {
  ++nodes_;
  if ((nodes_ & 1023) == 0 && Clock::now() >= deadline_) timed_out_ = true;
  if (nodes_ >= node_limit_) cut_off_ = true;
  if (timed_out_ || cut_off_) return false;
  if (!SpaceSuffices(begin, end, lo, hi)) return false;
  Choice choice;
  if (!ChooseRun(begin, end, &choice)) return false;
  const size_t run_begin = choice.run_begin;
  const size_t run_end = choice.run_end;
  const uint64_t f = skyline_.floor(run_begin);
  const uint64_t left = run_begin > begin ? skyline_.floor(run_begin - 1) : Skyline::kWall;
  const uint64_t right = run_end + 1 < end ? skyline_.floor(run_end + 1) : Skyline::kWall;
  const Mark mark = Save();

  if (choice.forced != kNone) {
    std::vector<size_t> candidates;
    for (size_t t = run_begin; t <= choice.forced; ++t) {
      for (size_t i : starts_[t]) {
        if (placed_[i] || sections_.last[i] < choice.forced || sections_.last[i] > run_end) continue;
        if (!Fits(i, f) || (twin_[i] != kNone && !placed_[twin_[i]])) continue;
        candidates.push_back(i);
      }
    }
    std::sort(candidates.begin(), candidates.end(), [&](size_t a, size_t b) { return rank_[a] < rank_[b]; });
    for (size_t i : candidates) {
      Place(i, f);
      if (SolveSections(begin, end, sections_.first[i], sections_.last[i])) return true;
      Unwind(mark);
      if (timed_out_ || cut_off_) return false;
    }
    return false;
  }

  // smallest_inside[s - run_begin]: the smallest unplaced tensor lying inside
  // [run_begin, s]; it bounds which raises are worth trying (dominance).
  std::vector<uint64_t> smallest_inside(run_end - run_begin + 1, Skyline::kWall);
  for (size_t s = run_begin; s <= run_end; ++s) {
    for (size_t i : starts_[s]) {
      if (placed_[i] || sections_.last[i] > run_end) continue;
      uint64_t& slot = smallest_inside[sections_.last[i] - run_begin];
      slot = std::min(slot, records_[i].size);
    }
  }
  for (size_t k = 1; k < smallest_inside.size(); ++k) {
    smallest_inside[k] = std::min(smallest_inside[k], smallest_inside[k - 1]);
  }

  for (size_t s = run_begin; s <= run_end; ++s) {
    for (size_t i : starts_[s]) {
      if (placed_[i] || sections_.last[i] > run_end || !Fits(i, f)) continue;
      if (twin_[i] != kNone && !placed_[twin_[i]]) continue;
      if (s > run_begin) {
        const uint64_t height = std::min(left, f + records_[i].size);
        if (smallest_inside[s - 1 - run_begin] <= height - f) continue;
        if (!RaiseFits(run_begin, s - 1, height)) continue;
        Raise(run_begin, s - 1, height);
      }
      Place(i, f);
      if (SolveSections(begin, end, run_begin, sections_.last[i])) return true;
      Unwind(mark);
      if (timed_out_ || cut_off_) return false;
    }
  }

  const uint64_t height = std::min(left, right);
  if (height != Skyline::kWall && smallest_inside.back() > height - f &&
      RaiseFits(run_begin, run_end, height)) {
    Raise(run_begin, run_end, height);
    if (SolveSections(begin, end, run_begin, run_end)) return true;
    Unwind(mark);
  }
  return false;
}

}  // namespace glpool
