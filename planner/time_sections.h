// Time sections: the task axis cut where the set of live records changes.
//
// Why: offset strategies reason per task ("what is live here"), but tasks can
// be sparse, negative-free yet huge (int64) or many; between two consecutive
// record boundaries the live set is constant, so one section stands for all
// its tasks. There are at most 2n - 1 sections for n records.
//
// Section j covers the tasks between boundary j and boundary j + 1, where the
// boundaries are the distinct points "at first_task" and "just after
// last_task" over all records, in task order. A section may have nothing live
// (a gap between records); records span contiguous sections.
#pragma once

#include <cstddef>
#include <vector>

#include "planner/usage_record.h"

namespace glpool {

struct TimeSections {
  size_t count = 0;                // number of sections
  std::vector<size_t> first;       // first[i]: first section of record i
  std::vector<size_t> last;        // last[i]: last section of record i (inclusive)
};

// Precondition: first_task <= last_task for every record.
// Records i and k overlap in tasks iff their section ranges overlap.
TimeSections BuildTimeSections(const std::vector<ByteRecord>& records);

// Sum of the sizes of the records live in each section (count entries).
std::vector<uint64_t> SectionLoads(const std::vector<ByteRecord>& records, const TimeSections& sections);

// (tensor, section) pairs of the records of non-zero size: the entries of
// the per-section tensor lists the complete searches keep
// (planner/offsets_arena_search.h, planner/offsets_canonical_search.h).
uint64_t CoverSlots(const std::vector<ByteRecord>& records);

// Beyond this many cover slots (64 MiB of lists) no complete search is
// attempted (EXACT returns its incumbent, PEAK_FIRST leaves the cluster to
// its fill).
inline constexpr uint64_t kMaxCoverSlots = uint64_t{1} << 23;

}  // namespace glpool
