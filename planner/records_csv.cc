#include "planner/records_csv.h"

#include <algorithm>
#include <fstream>
#include <sstream>
#include <vector>

#include "common/file_read.h"
#include "planner/record_limits.h"
#include "planner/records_json.h"

namespace glpool {
namespace {

std::string Trim(const std::string& s) {
  size_t a = 0, b = s.size();
  while (a < b && (s[a] == ' ' || s[a] == '\t' || s[a] == '\r')) ++a;
  while (b > a && (s[b - 1] == ' ' || s[b - 1] == '\t' || s[b - 1] == '\r')) --b;
  return s.substr(a, b - a);
}

std::vector<std::string> Fields(const std::string& line) {
  std::vector<std::string> fields;
  std::string field;
  std::istringstream in(line);
  while (std::getline(in, field, ',')) fields.push_back(Trim(field));
  if (!line.empty() && line.back() == ',') fields.push_back("");
  return fields;
}

// A non-negative decimal integer that fits in 64 bits.
bool ParseUnsigned(const std::string& text, uint64_t* value) {
  if (text.empty() || text.size() > 20) return false;
  uint64_t v = 0;
  for (char c : text) {
    if (c < '0' || c > '9') return false;
    const uint64_t digit = static_cast<uint64_t>(c - '0');
    if (v > (UINT64_MAX - digit) / 10) return false;
    v = v * 10 + digit;
  }
  *value = v;
  return true;
}

std::string Stem(const std::string& path) {
  const size_t slash = path.find_last_of('/');
  std::string name = slash == std::string::npos ? path : path.substr(slash + 1);
  const size_t dot = name.find_last_of('.');
  return dot == std::string::npos || dot == 0 ? name : name.substr(0, dot);
}

bool EndsWith(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

}  // namespace

StatusOr<RecordSet> ParseRecordsCsv(const std::string& text, const std::string& source) {
  RecordSet set;
  set.model = Stem(source);
  std::istringstream in(text);
  std::string line;
  size_t line_number = 0;
  bool header = false;
  auto error = [&](const std::string& what) {
    return InvalidArgumentError(source + ":" + std::to_string(line_number) + ": " + what);
  };
  while (std::getline(in, line)) {
    ++line_number;
    if (Trim(line).empty()) continue;
    const std::vector<std::string> fields = Fields(line);
    if (!header) {
      if (fields != std::vector<std::string>{"id", "lower", "upper", "size"}) {
        return error("expected the header \"id,lower,upper,size\"");
      }
      header = true;
      continue;
    }
    if (fields.size() != 4) {
      return error("expected 4 fields (id,lower,upper,size), got " + std::to_string(fields.size()));
    }
    if (set.records.size() >= kMaxRecords) {
      return error("more than " + std::to_string(kMaxRecords) + " records");
    }
    uint64_t lower = 0, upper = 0, size = 0;
    const char* names[] = {"lower", "upper", "size"};
    uint64_t* values[] = {&lower, &upper, &size};
    for (int k = 0; k < 3; ++k) {
      if (!ParseUnsigned(fields[k + 1], values[k])) {
        return error(std::string(names[k]) + " \"" + fields[k + 1] +
                     "\" is not a non-negative integer below 2^64");
      }
    }
    if (upper <= lower) {
      return error("upper " + std::to_string(upper) + " is not after lower " +
                   std::to_string(lower) + " (upper is exclusive)");
    }
    if (upper - 1 > static_cast<uint64_t>(kMaxTaskIndex)) {
      return error("upper " + std::to_string(upper) + " is past the largest task index " +
                   std::to_string(kMaxTaskIndex) + " + 1");
    }
    if (size > kMaxRecordBytes) {
      return error("size " + std::to_string(size) + " is above the limit of " +
                   std::to_string(kMaxRecordBytes) + " bytes");
    }
    set.records.push_back({size, static_cast<TaskId>(lower), static_cast<TaskId>(upper - 1)});
    set.names.push_back(fields[0]);
    set.tasks = std::max<TaskId>(set.tasks, static_cast<TaskId>(upper));
  }
  if (!header) return InvalidArgumentError(source + ": empty, no \"id,lower,upper,size\" header");
  Status limits = CheckRecordLimits(set.records, &set.names);
  if (!limits.ok()) return limits.WithContext(source);
  return set;
}

StatusOr<RecordSet> ReadRecordsCsv(const std::string& path) {
  GLPOOL_ASSIGN_OR_RETURN(std::string text, ReadWholeFile(path, "records", kMaxRecordsFileBytes));
  return ParseRecordsCsv(text, path);
}

std::string RecordsToCsv(const RecordSet& set) {
  std::ostringstream out;
  out << "id,lower,upper,size\n";
  for (size_t i = 0; i < set.records.size(); ++i) {
    const ByteRecord& r = set.records[i];
    const std::string name = i < set.names.size() ? set.names[i] : std::string();
    const bool plain = !name.empty() && name.find_first_of(",\"\r\n") == std::string::npos &&
                       Trim(name) == name;
    out << (plain ? name : std::to_string(i)) << "," << r.first_task << "," << r.last_task + 1
        << "," << r.size << "\n";
  }
  return out.str();
}

Status WriteRecordsCsv(const RecordSet& set, const std::string& path) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) return NotFoundError("writing records " + path + ": cannot open the file");
  out << RecordsToCsv(set);
  out.close();
  if (!out) return InternalError("writing records " + path + ": write failed");
  return Status::Ok();
}

StatusOr<RecordSet> ReadRecordsFile(const std::string& path) {
  return EndsWith(path, ".csv") ? ReadRecordsCsv(path) : ReadRecordsJson(path);
}

Status WriteRecordsFile(const RecordSet& set, const std::string& path) {
  return EndsWith(path, ".csv") ? WriteRecordsCsv(set, path) : WriteRecordsJson(set, path);
}

}  // namespace glpool
