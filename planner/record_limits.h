// The limits every record set must meet before any strategy sees it.
//
// They keep the planner's arithmetic exact: with at most kMaxRecords
// records of at most kMaxRecordBytes each and kMaxTotalBytes in all, every
// total, offset, arena end and search cost fits in 64 bits with room for a
// sum of two, so no answer can wrap past 2^64 and print as "0.00 MB". Task
// indices stay below kMaxTaskIndex so "last + 1" and task counts never
// overflow. No network comes near them: the largest zoo record set has 475
// records and ~130 MB.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "common/status.h"
#include "planner/usage_record.h"

namespace glpool {

inline constexpr uint64_t kMaxRecords = uint64_t{1} << 24;      // 16.7 million
inline constexpr uint64_t kMaxRecordBytes = uint64_t{1} << 48;  // 256 TiB
inline constexpr uint64_t kMaxTotalBytes = uint64_t{1} << 56;   // 64 PiB, all records together
inline constexpr TaskId kMaxTaskIndex = (TaskId{1} << 31) - 1;
// A records JSON file larger than this is refused before it is read (the
// limit's worth of records takes ~1.3 GB of JSON).
inline constexpr uint64_t kMaxRecordsFileBytes = uint64_t{1} << 31;

// kInvalidArgument naming the first record (by index, and by name when
// `names` has one) that breaks a limit or ends before it starts.
Status CheckRecordLimits(const std::vector<ByteRecord>& records,
                         const std::vector<std::string>* names = nullptr);

}  // namespace glpool
