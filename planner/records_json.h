// Records in the JSON format of ../shared/zoo/records/*.json:
//   {"model": str, "tasks": int,
//    "records": [{"name": str, "size": int, "first": int, "last": int}, ...]}
// Sizes are bytes; first/last are task indices, inclusive.
//
// Reading never throws or aborts: anything malformed (not JSON, a missing or
// mistyped field, a negative size or task, last < first, last >= tasks) comes
// back as an InvalidArgument Status naming the source and the record by index
// and, when it has one, by name. "model" and "name" are optional ("model"
// defaults to the file's stem); "tasks" is optional and defaults to
// max(last) + 1.
#pragma once

#include <string>

#include "common/status.h"
#include "planner/usage_record.h"

namespace glpool {

// Parses JSON text; `source` names it in errors (a path, or "<stdin>").
StatusOr<RecordSet> ParseRecordsJson(const std::string& text, const std::string& source);

// Reads and parses a file; an unreadable file is a NotFound error naming it.
StatusOr<RecordSet> ReadRecordsJson(const std::string& path);

// Serializes in the same format, one record per line so files diff well.
std::string RecordsToJson(const RecordSet& set);

// Writes RecordsToJson(set) to `path`.
Status WriteRecordsJson(const RecordSet& set, const std::string& path);

}  // namespace glpool
