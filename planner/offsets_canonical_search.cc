#include "planner/offsets_canonical_search.h"

#include <algorithm>
#include <utility>

namespace glpool {
namespace {

constexpr size_t kHeuristics = 3;

}  // namespace

CanonicalSearch::CanonicalSearch(const std::vector<ByteRecord>& records)
    : records_(records),
      sections_(BuildTimeSections(records)),
      overlaps_(records.size()),
      cover_(sections_.count),
      loads_(SectionLoads(records, sections_)),
      rank_(records.size(), 0) {
  maximal_.assign(sections_.count, 0);
  for (size_t i = 0; i < records.size(); ++i) {
    if (records[i].size == 0) continue;
    maximal_[sections_.last[i]] = 1;
    tensors_.push_back(static_cast<uint32_t>(i));
    for (size_t s = sections_.first[i]; s <= sections_.last[i]; ++s) {
      cover_[s].push_back(static_cast<uint32_t>(i));
    }
  }
  mpos_.assign(sections_.count + 1, 0);
  for (size_t s = 0; s < sections_.count; ++s) {
    mpos_[s + 1] = mpos_[s] + (maximal_[s] ? 1 : 0);
    if (maximal_[s]) maximal_list_.push_back(static_cast<uint32_t>(s));
  }
  if (records.size() > kMaxCanonicalTensors) return;  // Solve refuses; skip the quadratic lists
  for (size_t a = 0; a < tensors_.size(); ++a) {
    for (size_t b = a + 1; b < tensors_.size(); ++b) {
      const uint32_t i = tensors_[a], j = tensors_[b];
      if (sections_.first[i] <= sections_.last[j] && sections_.first[j] <= sections_.last[i]) {
        overlaps_[i].push_back(j);
        overlaps_[j].push_back(i);
      }
    }
  }
}

void CanonicalSearch::Rank(const std::vector<uint32_t>& tensors) {
  // Keys, larger first: W = lifetime in tasks, A = size * lifetime, T = the
  // highest load still to place in a section of the tensor's life (left_:
  // the whole load at the root, what is left when a part splits off).
  // Lifetimes count tasks, not sections, so the order sees how long a tensor
  // really lives: on MiniMalloc's published instances (raw times) this found
  // D and J at 1,048,576 bytes in milliseconds, where counting sections had
  // not found them after 5 s.
  keys_.resize(records_.size());
  for (uint32_t i : tensors) {
    const uint64_t w = static_cast<uint64_t>(records_[i].last_task - records_[i].first_task) + 1;
    uint64_t t = 0;
    for (uint32_t k = mpos_[sections_.first[i]]; k < mpos_[sections_.last[i] + 1]; ++k) {
      t = std::max(t, left_[maximal_list_[k]]);
    }
    keys_[i] = {w, t, static_cast<double>(w) * static_cast<double>(records_[i].size)};
  }
  std::vector<uint32_t> order = tensors;
  const size_t heuristic = heuristic_;
  std::stable_sort(order.begin(), order.end(), [&](uint32_t x, uint32_t y) {
    const RankKey& a = keys_[x];
    const RankKey& b = keys_[y];
    switch (heuristic) {
      // T, W, A first: the one that finds MiniMalloc's hardest instances
      // (E, F, I at 1,048,576) soonest; it solves E and F alone.
      case 0:  // T, W, A
        if (a.t != b.t) return a.t > b.t;
        if (a.w != b.w) return a.w > b.w;
        return a.a > b.a;
      case 1:  // W, A, T
        if (a.w != b.w) return a.w > b.w;
        if (a.a != b.a) return a.a > b.a;
        return a.t > b.t;
      default:  // T, A, W
        if (a.t != b.t) return a.t > b.t;
        if (a.a != b.a) return a.a > b.a;
        return a.w > b.w;
    }
  });
  for (size_t r = 0; r < order.size(); ++r) rank_[order[r]] = static_cast<uint32_t>(r);
}

SearchOutcome CanonicalSearch::Solve(const std::vector<uint64_t>& caps, Clock::time_point deadline,
                                     uint64_t node_cap, std::vector<uint64_t>* offsets,
                                     CanonicalProgress* progress) {
  nodes_ = 0;
  visits_ = 0;
  timed_out_ = false;
  if (records_.size() > kMaxCanonicalTensors) return SearchOutcome::kTimedOut;
  caps_ = &caps;
  deadline_ = deadline;
  capacity_ = 0;
  for (uint32_t i : tensors_) {
    if (records_[i].size > caps[i]) return SearchOutcome::kInfeasible;
    capacity_ = std::max(capacity_, caps[i]);
  }
  for (uint64_t load : loads_) {
    if (load > capacity_) return SearchOutcome::kInfeasible;
  }
  const size_t count = sections_.count;
  std::vector<uint32_t> crossing(count, 0);
  for (uint32_t i : tensors_) {
    for (size_t b = sections_.first[i]; b < sections_.last[i]; ++b) ++crossing[b];
  }
  solution_.assign(records_.size(), 0);

  CanonicalProgress fresh;
  CanonicalProgress& at = progress != nullptr ? *progress : fresh;
  if (at.limit == 0) {
    at.limit = 2 * std::max<uint64_t>(tensors_.size(), 1);
    at.attempt = 0;
  }
  at.branches.resize(kHeuristics);
  for (;; at.limit = std::min<uint64_t>(at.limit * 2, uint64_t{1} << 50), at.attempt = 0) {
    for (; at.attempt < kHeuristics; ++at.attempt) {
      if (nodes_ >= node_cap) return SearchOutcome::kTimedOut;
      // Each ranking's search goes on where it stopped, with what this
      // round's limit leaves it.
      CanonicalProgress::Branch& branch = at.branches[at.attempt];
      if (branch.nodes >= at.limit) continue;
      const uint64_t quota = at.limit - branch.nodes;
      nodes_left_ = std::min(quota, node_cap - nodes_);
      const uint64_t granted = nodes_left_;
      heuristic_ = at.attempt;
      replay_ = branch.path;
      replay_pos_ = replay_.empty() ? 0 : 1;  // step 0 is the root's
      const uint32_t resume_part = replay_.empty() ? 0 : replay_[0].part;
      path_.assign(1, CanonicalProgress::Step{});
      aborted_ = false;
      offset_.assign(records_.size(), 0);
      placed_.assign(records_.size(), 0);
      lowest_.assign(records_.size(), 0);
      floor_.assign(count, 0);
      left_ = loads_;
      // Boundaries nothing crosses split the problem from the start.
      Result result = Result::kFound;
      size_t begin = 0;
      uint32_t part_index = 0;
      std::vector<uint32_t> part;
      for (size_t s = 0; s < count && result == Result::kFound; ++s) {
        for (uint32_t i : cover_[s]) {
          if (sections_.first[i] == s) part.push_back(i);
        }
        if (s + 1 < count && crossing[s] != 0) continue;
        if (!part.empty()) {
          // Parts before the one the branch is in are solved again (they
          // were solved before), without taking steps of the path.
          path_[0].part = part_index;
          replay_paused_ = part_index < resume_part;
          result = SolvePart(part, begin, s + 1);
          replay_paused_ = false;
          ++part_index;
        }
        part.clear();
        begin = s + 1;
      }
      if (result == Result::kFound) {
        *offsets = solution_;
        return SearchOutcome::kFound;
      }
      // Every branch of this ranking refuted (across all calls): a proof.
      if (result == Result::kNotFound) return SearchOutcome::kInfeasible;
      // Cut off by the deadline, the round's limit or the call's cap.
      branch.path = cut_path_;
      branch.nodes += granted - nodes_left_;
      if (timed_out_ || granted < quota) return SearchOutcome::kTimedOut;
    }
  }
}

CanonicalSearch::Result CanonicalSearch::SolvePart(const std::vector<uint32_t>& part, size_t begin,
                                                   size_t end) {
  // Each part is ranked on the loads left in it (the whole load at the
  // root); the caller's ranks come back after.
  std::vector<uint32_t> saved(part.size());
  for (size_t k = 0; k < part.size(); ++k) saved[k] = rank_[part[k]];
  Rank(part);
  const Result result = Search(part, begin, end, 0, 0);
  for (size_t k = 0; k < part.size(); ++k) rank_[part[k]] = saved[k];
  return result;
}

CanonicalSearch::Result CanonicalSearch::Cut() {
  aborted_ = true;
  // The branch to come back to: the open frames, or, when stopped before it
  // got back to where it stopped last time, that place.
  cut_path_ = GoingBack() ? replay_ : path_;
  return Result::kAborted;
}

bool CanonicalSearch::SectionsFit(size_t begin, size_t end, uint64_t offset) const {
  for (uint32_t k = mpos_[begin]; k < mpos_[end]; ++k) {
    const size_t s = maximal_list_[k];
    if (left_[s] == 0) continue;
    const uint64_t f = std::max(floor_[s], offset);
    if (f > capacity_ || left_[s] > capacity_ - f) return false;
  }
  return true;
}

bool CanonicalSearch::LowestFits(size_t s) const {
  const uint64_t highest_start = capacity_ - left_[s];
  for (uint32_t j : cover_[s]) {
    if (!placed_[j] && lowest_[j] <= highest_start) return true;
  }
  return false;
}

bool CanonicalSearch::Split(size_t i, size_t begin, size_t end, std::vector<size_t>* cuts) {
  // A boundary b|b+1 that an unplaced tensor crosses lies in i's range only
  // if that tensor overlaps i, so i's overlaps are all there is to count
  // (cheaper than keeping counts up to date on every placement: this runs
  // once per node, placements once per candidate).
  const size_t first = sections_.first[i], last = sections_.last[i];
  crossed_.assign(last - first + 1, 0);
  for (uint32_t j : overlaps_[i]) {
    if (placed_[j]) continue;
    const size_t lo = std::max<size_t>(first, sections_.first[j]);
    const size_t hi = std::min<size_t>(last, sections_.last[j]);
    ++crossed_[lo - first];  // j crosses the boundaries lo|lo+1 .. hi-1|hi
    --crossed_[hi - first];
  }
  cuts->clear();
  cuts->push_back(begin);
  int32_t crossing = 0;
  for (size_t b = first; b < last; ++b) {
    crossing += crossed_[b - first];
    if (crossing == 0) cuts->push_back(b + 1);
  }
  cuts->push_back(end);
  return cuts->size() > 2;
}

CanonicalSearch::Result CanonicalSearch::Search(const std::vector<uint32_t>& part, size_t begin,
                                                size_t end, uint64_t min_offset, uint32_t min_rank) {
  if (aborted_) return Result::kAborted;
  if ((++visits_ & 255) == 0 && Clock::now() >= deadline_) {
    timed_out_ = true;
    return Cut();
  }
  // Frames met while going back to where the attempt stopped (walking down
  // its branch, or solving again the parts before it) redo known work:
  // only new frames count as nodes, so any quota makes progress.
  if (!GoingBack()) {
    if (nodes_left_ == 0) return Cut();
    --nodes_left_;
    ++nodes_;
  }
  // Walking back down a stopped branch: this frame starts at the candidate
  // it was trying (those before it were refuted), in the part it was in.
  size_t first = 0;
  uint32_t first_part = 0;
  const bool resuming = !replay_paused_ && replay_pos_ < replay_.size();
  if (resuming) {
    first = replay_[replay_pos_].choice;
    first_part = replay_[replay_pos_].part;
    ++replay_pos_;
  }
  uint64_t min_top = UINT64_MAX;
  for (uint32_t i : part) {
    if (!placed_[i]) min_top = std::min(min_top, lowest_[i] + records_[i].size);
  }
  if (min_top == UINT64_MAX) {
    for (uint32_t i : part) solution_[i] = offset_[i];
    return Result::kFound;
  }
  // Only tensors after the last placement in canonical order, and below
  // every unplaced top (dominance), are branched on.
  std::vector<Candidate> candidates;
  for (uint32_t i : part) {
    if (placed_[i]) continue;
    const uint64_t offset = lowest_[i];
    if (offset < min_offset || offset >= min_top || (offset == min_offset && rank_[i] < min_rank)) {
      continue;
    }
    candidates.push_back({offset, rank_[i], i});
  }
  std::sort(candidates.begin(), candidates.end(), [](const Candidate& a, const Candidate& b) {
    return a.offset != b.offset ? a.offset < b.offset : a.rank < b.rank;
  });

  std::vector<size_t> cuts;
  // The section bound after placing a candidate depends on its offset only:
  // in its own sections max(floor, offset) + load left becomes top + (load
  // - size) = offset + load, and elsewhere nothing changes. So it is checked
  // before placing, once per offset, and since it only tightens as the
  // offset grows, the first offset that fails ends the node.
  uint64_t fitting_offset = UINT64_MAX;
  for (size_t k = first; k < candidates.size(); ++k) {
    const Candidate& c = candidates[k];
    const uint32_t i = c.tensor;
    const uint64_t size = records_[i].size;
    if (c.offset > (*caps_)[i] - size) continue;
    if (c.offset != fitting_offset) {
      if (!SectionsFit(begin, end, c.offset)) break;
      fitting_offset = c.offset;
    }
    const uint64_t top = c.offset + size;
    path_.push_back({static_cast<uint32_t>(k), 0});
    const bool resumed_branch = resuming && k == first;
    placed_[i] = 1;
    offset_[i] = c.offset;
    // What this placement changes, undone below (stacks shared by all
    // frames: no allocation per node).
    const size_t lowest_mark = lowest_undo_.size();
    const size_t floor_mark = floor_undo_.size();
    size_t touch_lo = sections_.first[i], touch_hi = sections_.last[i];
    bool hatless = true;
    for (uint32_t j : overlaps_[i]) {
      if (placed_[j]) continue;
      hatless = false;
      if (lowest_[j] >= top) continue;
      lowest_undo_.push_back({j, lowest_[j]});
      lowest_[j] = top;
      // Every such j overlaps i, so the sections they span form one stretch
      // around i's own; inside i's range i's top becomes the floor below (at
      // most every unplaced lowest offset there): only the rest needs a look.
      touch_lo = std::min(touch_lo, sections_.first[j]);
      touch_hi = std::max(touch_hi, sections_.last[j]);
    }
    // Canonical order puts i above everything placed in its sections, so
    // its top is their new floor.
    const uint32_t own_lo = mpos_[sections_.first[i]], own_hi = mpos_[sections_.last[i] + 1];
    for (uint32_t k = own_lo; k < own_hi; ++k) {
      const size_t s = maximal_list_[k];
      floor_undo_.push_back({static_cast<uint32_t>(s), floor_[s]});
      floor_[s] = top;
      left_[s] -= size;
    }
    // Where a lowest offset rose, the lowest unplaced tensor of the section
    // must still leave room for the load there; only those sections can have
    // lost it (elsewhere the load only shrank). Every raised tensor overlaps
    // i, so each section of [touch_lo, touch_hi] holds one, now at `top`:
    // where `top` leaves room, that one answers, and only the others need a
    // scan (which stops at the first tensor low enough).
    bool room = true;
    for (uint32_t k = mpos_[touch_lo]; k < mpos_[touch_hi + 1] && room; ++k) {
      if (k == own_lo) k = own_hi;
      if (k >= mpos_[touch_hi + 1]) break;
      const size_t s = maximal_list_[k];
      if (left_[s] != 0 && top > capacity_ - left_[s]) room = LowestFits(s);
    }

    Result result = Result::kNotFound;
    if (room) {
      if (!Split(i, begin, end, &cuts)) {
        result = Search(part, begin, end, c.offset, c.rank);
      } else {
        // Independent parts: each tensor left lies inside one of them.
        for (uint32_t j : part) {
          if (placed_[j]) solution_[j] = offset_[j];
        }
        result = Result::kFound;
        std::vector<uint32_t> sub;
        for (size_t q = 0; q + 1 < cuts.size() && result == Result::kFound; ++q) {
          sub.clear();
          for (uint32_t j : part) {
            if (!placed_[j] && sections_.first[j] >= cuts[q] && sections_.last[j] < cuts[q + 1]) {
              sub.push_back(j);
            }
          }
          if (sub.empty()) continue;
          path_.back().part = static_cast<uint32_t>(q);
          if (resumed_branch) replay_paused_ = q < first_part;
          result = SolvePart(sub, cuts[q], cuts[q + 1]);
          if (resumed_branch) replay_paused_ = false;
        }
      }
    }

    for (uint32_t k = own_lo; k < own_hi; ++k) left_[maximal_list_[k]] += size;
    for (size_t k = floor_undo_.size(); k > floor_mark; --k) floor_[floor_undo_[k - 1].index] = floor_undo_[k - 1].value;
    for (size_t k = lowest_undo_.size(); k > lowest_mark; --k) lowest_[lowest_undo_[k - 1].index] = lowest_undo_[k - 1].value;
    floor_undo_.resize(floor_mark);
    lowest_undo_.resize(lowest_mark);
    placed_[i] = 0;
    path_.pop_back();
    if (resumed_branch) replay_pos_ = replay_.size();  // the walk down is over
    if (result != Result::kNotFound) return result;
    if (hatless) break;  // where i sits cannot be what failed
  }
  return Result::kNotFound;
}

}  // namespace glpool
