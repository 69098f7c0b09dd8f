#include "planner/offsets_peak_first.h"

#include <algorithm>
#include <limits>
#include <map>

#include "planner/offsets_arena_search.h"
#include "planner/offsets_canonical_search.h"
#include "planner/offsets_gap_fit.h"
#include "planner/range_minimum.h"
#include "planner/time_sections.h"

namespace glpool {
namespace {

// A cluster's search gets this share of the time left when its turn comes.
constexpr double kClusterShare = 0.25;

// Per tensor, the highest load in a section of its life.
std::vector<uint64_t> Peaks(const std::vector<ByteRecord>& records, uint64_t* highest) {
  const TimeSections sections = BuildTimeSections(records);
  const std::vector<uint64_t> loads = SectionLoads(records, sections);
  *highest = loads.empty() ? 0 : *std::max_element(loads.begin(), loads.end());
  // RangeMinimum finds minima: store how far each section is below the top.
  std::vector<size_t> below(loads.size());
  for (size_t s = 0; s < loads.size(); ++s) below[s] = static_cast<size_t>(*highest - loads[s]);
  std::vector<uint64_t> peaks(records.size(), 0);
  if (loads.empty()) return peaks;
  const RangeMinimum lowest_below(std::move(below));
  for (size_t i = 0; i < records.size(); ++i) {
    peaks[i] = *highest - lowest_below.Min(sections.first[i], sections.last[i]);
  }
  return peaks;
}

// Tensors in clusters: sorted by first task (then index), a cluster ends
// where no earlier tensor of it lives on.
std::vector<std::vector<uint32_t>> Clusters(const std::vector<ByteRecord>& records,
                                            std::vector<uint32_t> core) {
  std::sort(core.begin(), core.end(), [&](uint32_t a, uint32_t b) {
    return records[a].first_task != records[b].first_task ? records[a].first_task < records[b].first_task
                                                          : a < b;
  });
  std::vector<std::vector<uint32_t>> clusters;
  TaskId reach = 0;
  for (uint32_t i : core) {
    if (clusters.empty() || records[i].first_task > reach) {
      clusters.emplace_back();
      reach = records[i].last_task;
    }
    clusters.back().push_back(i);
    reach = std::max(reach, records[i].last_task);
  }
  return clusters;
}

// Packs `part` under `cap` with the two complete searches in turn, in time
// slices that double from 1 ms, each going on where it stopped: either can
// stall where the other is quick (bench/record_generator.h's random_50000:
// seed 2's 440 tensors above 9/10 of the top, the skyline search 13 ms, the
// canonical one not done in 5 s; seed 4's 179 above 95/100 of it, the
// canonical search 3 ms, the skyline one not done in 5 s). False when
// neither packed it by the deadline or one proved it cannot be done.
bool PackUnder(const std::vector<ByteRecord>& part, uint64_t cap, const Deadline& deadline,
               std::vector<uint64_t>* offsets) {
  const std::vector<uint64_t> caps(part.size(), cap);
  CanonicalSearch canonical(part);
  ArenaSearch skyline(part);
  CanonicalProgress canonical_progress;
  SearchProgress skyline_progress;
  for (double slice = 0.001; !deadline.ExpiredNow(); slice *= 2) {
    for (int which = 0; which < 2; ++which) {
      const auto until = std::min(Deadline(slice).at(), deadline.at());
      const SearchOutcome outcome =
          which == 0 ? skyline.Solve(caps, until, offsets, &skyline_progress)
                     : canonical.Solve(caps, until, std::numeric_limits<uint64_t>::max(), offsets,
                                       &canonical_progress);
      if (outcome != SearchOutcome::kTimedOut) return outcome == SearchOutcome::kFound;
    }
  }
  return false;
}

// The rounds' state: which tensors are in the core, and since when.
class PeakFirst {
 public:
  PeakFirst(const std::vector<ByteRecord>& records, const Deadline& deadline)
      : records_(records), deadline_(deadline), peak_(Peaks(records, &top_)), packer_(records) {
    for (size_t i = 0; i < records.size(); ++i) {
      if (records[i].size != 0) order_.push_back(i);
    }
    std::sort(order_.begin(), order_.end(), [&](size_t a, size_t b) {
      if (peak_[a] != peak_[b]) return peak_[a] > peak_[b];
      if (records[a].size != records[b].size) return records[a].size > records[b].size;
      return a < b;
    });
    warm_ = static_cast<size_t>(
        std::partition_point(order_.begin(), order_.end(), [&](size_t i) { return Slack(i) < top_ / 4; }) -
        order_.begin());
    joined_.assign(records.size(), kNever);
    for (size_t i : order_) {
      if (Slack(i) < top_ / 10) joined_[i] = 0;
    }
    left_out_.assign(records.size(), 0);
    offsets_.assign(records.size(), 0);
    placed_.assign(records.size(), 0);
  }

  PeakFirstResult Run() {
    PeakFirstResult best;
    uint64_t best_arena = std::numeric_limits<uint64_t>::max();
    for (round_ = 0; round_ < kMaxPeakFirstRounds; ++round_) {
      std::fill(placed_.begin(), placed_.end(), 0);
      core_ = 0;
      const bool out_of_time = !PlaceCore();
      if (out_of_time && !best.offsets.empty()) break;  // the last complete plan stands
      if (out_of_time) {  // round 0: the fill alone
        std::fill(placed_.begin(), placed_.end(), 0);
        core_ = 0;
      }
      // The rest around the core, tightest first: the warm prefix, then
      // (when it all fitted, or no other round will run) the rest.
      packer_.Clear();
      for (size_t i : order_) {
        if (placed_[i]) packer_.PlaceAt(i, offsets_[i]);
      }
      above_.clear();
      Fill(0, warm_);
      best.rounds = round_ + 1;
      const bool last = out_of_time || deadline_.ExpiredNow() || round_ + 1 == kMaxPeakFirstRounds;
      if (!above_.empty() && !last) {
        Join();
        continue;
      }
      Fill(warm_, order_.size());
      uint64_t arena = 0;
      for (size_t i : order_) arena = std::max(arena, offsets_[i] + records_[i].size);
      if (arena < best_arena) {
        best_arena = arena;
        best.offsets = offsets_;
        best.core = core_;
      }
      if (arena <= top_ || above_.empty() || last) break;
      Join();
    }
    if (best.offsets.empty()) best.offsets.assign(records_.size(), 0);  // nothing of non-zero size
    return best;
  }

 private:
  static constexpr size_t kNever = std::numeric_limits<size_t>::max();

  uint64_t Slack(size_t i) const { return top_ - peak_[i]; }

  // Packs the core, cluster by cluster; false when time ran out first.
  bool PlaceCore() {
    std::vector<uint32_t> core;
    for (size_t i = 0; i < records_.size(); ++i) {
      if (joined_[i] != kNever && !left_out_[i]) core.push_back(static_cast<uint32_t>(i));
    }
    for (const std::vector<uint32_t>& cluster : Clusters(records_, core)) {
      if (!PlaceCluster(cluster)) return false;
    }
    return true;
  }

  // Packs `cluster` under the top, or the largest part of it that packs:
  // when it does not (in its slice of time, or provably), its latest
  // joiners leave the core for good and the rest (packed before, so found
  // again at once) goes back; a cluster of the first core alone keeps its
  // tighter half (slack under half of what let it in) and then nothing.
  // False when time ran out.
  bool PlaceCluster(const std::vector<uint32_t>& cluster) {
    const std::vector<uint64_t>* offsets = nullptr;
    auto known = packed_.find(cluster);
    if (known != packed_.end()) {
      offsets = &known->second;
    } else if (cluster.size() <= kMaxCanonicalTensors) {
      if (deadline_.ExpiredNow()) return false;
      part_.clear();
      for (uint32_t i : cluster) part_.push_back(records_[i]);
      if (CoverSlots(part_) <= kMaxCoverSlots) {
        const Deadline slice(
            std::min(Deadline(deadline_.SecondsLeft() * kClusterShare).at(), deadline_.at()));
        std::vector<uint64_t> part_offsets;
        if (PackUnder(part_, top_, slice, &part_offsets)) {
          offsets = &(packed_[cluster] = std::move(part_offsets));
        } else if (deadline_.ExpiredNow()) {
          return false;
        }
      }
    }
    if (offsets != nullptr) {
      for (size_t k = 0; k < cluster.size(); ++k) {
        offsets_[cluster[k]] = (*offsets)[k];
        placed_[cluster[k]] = 1;
      }
      core_ += cluster.size();
      return true;
    }
    // Which members stay.
    size_t latest = 0;
    uint64_t widest = 0;
    for (uint32_t i : cluster) {
      latest = std::max(latest, joined_[i]);
      widest = std::max(widest, Slack(i));
    }
    std::vector<uint32_t> kept;
    for (uint32_t i : cluster) {
      const bool stays = latest > 0 ? joined_[i] < latest : Slack(i) < widest / 2;
      if (stays) {
        kept.push_back(i);
      } else {
        left_out_[i] = 1;
      }
    }
    for (const std::vector<uint32_t>& sub : Clusters(records_, kept)) {
      if (!PlaceCluster(sub)) return false;
    }
    return true;
  }

  void Fill(size_t from, size_t to) {
    for (size_t k = from; k < to; ++k) {
      const size_t i = order_[k];
      if (!placed_[i]) offsets_[i] = packer_.Place(i);
      if (offsets_[i] + records_[i].size > top_ && !left_out_[i]) above_.push_back(i);
    }
  }

  // Tensors that ended above the top join the core.
  void Join() {
    for (size_t i : above_) joined_[i] = round_ + 1;
  }

  const std::vector<ByteRecord>& records_;
  const Deadline& deadline_;
  uint64_t top_ = 0;            // the offsets lower bound: the highest section load
  std::vector<uint64_t> peak_;  // per tensor
  std::vector<size_t> order_;   // the fill's order: tightest first
  size_t warm_ = 0;             // order_'s prefix with peaks above 3/4 of the top
  std::vector<size_t> joined_;  // the round a tensor joined the core in, or kNever
  std::vector<char> left_out_;  // left the core for good
  // Clusters packed in earlier rounds, by their tensors: most come back
  // unchanged, since the core only grows.
  std::map<std::vector<uint32_t>, std::vector<uint64_t>> packed_;
  size_t round_ = 0;
  size_t core_ = 0;  // tensors the core placed this round
  std::vector<uint64_t> offsets_;
  std::vector<char> placed_;  // by the core, this round
  std::vector<size_t> above_;
  std::vector<ByteRecord> part_;
  GapFitPacker packer_;  // the fill's, cleared each round
};

}  // namespace

PeakFirstResult OffsetsPeakFirst(const std::vector<ByteRecord>& records, const Deadline& deadline) {
  return PeakFirst(records, deadline).Run();
}

}  // namespace glpool
