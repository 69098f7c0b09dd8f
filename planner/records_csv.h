// Records in MiniMalloc's CSV form, as its published instances are
// (../shared/zoo/challenging/*.csv):
//   id,lower,upper,size
//   0,995328,1000448,656384
// one buffer a line: live from `lower` to `upper` EXCLUSIVE, `size` bytes.
// Our records are inclusive, so a row becomes {size, lower, upper - 1}; a
// row with upper <= lower is never live and is refused.
//
// Reading never throws or aborts: a wrong header, a missing or extra
// field, a field that is not a non-negative decimal integer (or overflows
// 64 bits), upper <= lower, or a record past record_limits.h comes back as
// an InvalidArgument Status "SOURCE:LINE: ..." naming the line. The id
// becomes the record's name; the model is the file's stem.
#pragma once

#include <string>

#include "common/status.h"
#include "planner/usage_record.h"

namespace glpool {

StatusOr<RecordSet> ParseRecordsCsv(const std::string& text, const std::string& source);

// Reads through the bounded reader (common/file_read.h); NotFound when the
// file cannot be read.
StatusOr<RecordSet> ReadRecordsCsv(const std::string& path);

// The same form: ids are the record names when they are plain (no comma,
// quote or line break, not empty), the record index otherwise.
std::string RecordsToCsv(const RecordSet& set);
Status WriteRecordsCsv(const RecordSet& set, const std::string& path);

// By extension: ".csv" is MiniMalloc's CSV, anything else our JSON
// (planner/records_json.h).
StatusOr<RecordSet> ReadRecordsFile(const std::string& path);
Status WriteRecordsFile(const RecordSet& set, const std::string& path);

}  // namespace glpool
