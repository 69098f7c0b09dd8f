#include "planner/records_json.h"

#include <algorithm>
#include <cstdint>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "common/file_read.h"
#include "planner/record_limits.h"

namespace glpool {
namespace {

using nlohmann::json;

std::string Stem(const std::string& path) {
  size_t slash = path.find_last_of('/');
  std::string base = slash == std::string::npos ? path : path.substr(slash + 1);
  size_t dot = base.rfind('.');
  return dot == std::string::npos || dot == 0 ? base : base.substr(0, dot);
}

// Reads a non-negative integer field; `what` names it in errors.
Status ReadCount(const json& object, const char* key, const std::string& what, uint64_t* out) {
  auto it = object.find(key);
  if (it == object.end()) return InvalidArgumentError(what + " has no \"" + key + "\"");
  if (it->is_number_unsigned()) {
    *out = it->get<uint64_t>();
    return Status::Ok();
  }
  if (it->is_number_integer()) {
    return InvalidArgumentError(what + " has a negative \"" + key + "\" (" + it->dump() + ")");
  }
  return InvalidArgumentError(what + " has a non-integer \"" + key + "\" (" + it->dump() + ")");
}

Status ReadTask(const json& object, const char* key, const std::string& what, TaskId* out) {
  uint64_t value = 0;
  GLPOOL_RETURN_IF_ERROR(ReadCount(object, key, what, &value));
  if (value > static_cast<uint64_t>(INT64_MAX)) {
    return InvalidArgumentError(what + " has an out-of-range \"" + key + "\"");
  }
  *out = static_cast<TaskId>(value);
  return Status::Ok();
}

Status ParseInto(const std::string& text, const std::string& source, RecordSet* set) {
  const json doc = json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (doc.is_discarded()) return InvalidArgumentError("not valid JSON");
  if (!doc.is_object()) return InvalidArgumentError("the top level is not a JSON object");

  set->model = Stem(source);
  if (auto it = doc.find("model"); it != doc.end()) {
    if (!it->is_string()) return InvalidArgumentError("\"model\" is not a string");
    set->model = it->get<std::string>();
  }
  auto records = doc.find("records");
  if (records == doc.end()) return InvalidArgumentError("no \"records\" array");
  if (!records->is_array()) return InvalidArgumentError("\"records\" is not an array");

  TaskId max_last = -1;
  for (size_t i = 0; i < records->size(); ++i) {
    const json& r = (*records)[i];
    std::string what = "record " + std::to_string(i);
    if (!r.is_object()) return InvalidArgumentError(what + " is not a JSON object");
    std::string name;
    if (auto it = r.find("name"); it != r.end()) {
      if (!it->is_string()) return InvalidArgumentError(what + " has a non-string \"name\"");
      name = it->get<std::string>();
      what += " (" + name + ")";
    }
    if (set->records.size() >= kMaxRecords) {
      return InvalidArgumentError("more than " + std::to_string(kMaxRecords) + " records");
    }
    ByteRecord record;
    GLPOOL_RETURN_IF_ERROR(ReadCount(r, "size", what, &record.size));
    GLPOOL_RETURN_IF_ERROR(ReadTask(r, "first", what, &record.first_task));
    GLPOOL_RETURN_IF_ERROR(ReadTask(r, "last", what, &record.last_task));
    if (record.last_task < record.first_task) {
      return InvalidArgumentError(what + " has last " + std::to_string(record.last_task) +
                                  " < first " + std::to_string(record.first_task));
    }
    max_last = std::max(max_last, record.last_task);
    set->names.push_back(std::move(name));
    set->records.push_back(record);
  }

  GLPOOL_RETURN_IF_ERROR(CheckRecordLimits(set->records, &set->names));
  set->tasks = max_last + 1;
  if (doc.contains("tasks")) {
    GLPOOL_RETURN_IF_ERROR(ReadTask(doc, "tasks", "the record set", &set->tasks));
    if (set->tasks > kMaxTaskIndex) {
      return InvalidArgumentError("the record set has " + std::to_string(set->tasks) +
                                  " tasks, more than the limit of " + std::to_string(kMaxTaskIndex));
    }
    for (size_t i = 0; i < set->records.size(); ++i) {
      if (set->records[i].last_task >= set->tasks) {
        std::string what = "record " + std::to_string(i);
        if (!set->names[i].empty()) what += " (" + set->names[i] + ")";
        return InvalidArgumentError(
            what + " has last " + std::to_string(set->records[i].last_task) +
            " but the set has only " + std::to_string(set->tasks) + " tasks");
      }
    }
  }
  return Status::Ok();
}

}  // namespace

StatusOr<RecordSet> ParseRecordsJson(const std::string& text, const std::string& source) {
  RecordSet set;
  Status status = ParseInto(text, source, &set);
  if (!status.ok()) return status.WithContext("reading records " + source);
  return set;
}

StatusOr<RecordSet> ReadRecordsJson(const std::string& path) {
  // Records are small: a million of them is ~80 MB of JSON.
  GLPOOL_ASSIGN_OR_RETURN(std::string text, ReadWholeFile(path, "records", kMaxRecordsFileBytes));
  return ParseRecordsJson(text, path);
}

std::string RecordsToJson(const RecordSet& set) {
  std::ostringstream out;
  out << "{\"model\": " << json(set.model).dump(-1, ' ', false, json::error_handler_t::replace)
      << ", \"tasks\": " << set.tasks << ", \"records\": [";
  for (size_t i = 0; i < set.records.size(); ++i) {
    const ByteRecord& r = set.records[i];
    const std::string name = i < set.names.size() ? set.names[i] : std::string();
    out << (i == 0 ? "\n" : ",\n")
        << "  {\"name\": " << json(name).dump(-1, ' ', false, json::error_handler_t::replace)
        << ", \"size\": " << r.size << ", \"first\": " << r.first_task
        << ", \"last\": " << r.last_task << "}";
  }
  out << "\n]}\n";
  return out.str();
}

Status WriteRecordsJson(const RecordSet& set, const std::string& path) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) return NotFoundError("writing records " + path + ": cannot open the file");
  out << RecordsToJson(set);
  out.close();
  if (!out) return InternalError("writing records " + path + ": write failed");
  return Status::Ok();
}

}  // namespace glpool
