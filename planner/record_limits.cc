#include "planner/record_limits.h"

namespace glpool {
namespace {

std::string RecordLabel(size_t i, const std::vector<std::string>* names) {
  std::string label = "record " + std::to_string(i);
  if (names && i < names->size() && !(*names)[i].empty()) label += " (" + (*names)[i] + ")";
  return label;
}

}  // namespace

Status CheckRecordLimits(const std::vector<ByteRecord>& records, const std::vector<std::string>* names) {
  if (records.size() > kMaxRecords) {
    return InvalidArgumentError(std::to_string(records.size()) + " records, more than the limit of " +
                                std::to_string(kMaxRecords));
  }
  uint64_t total = 0;
  for (size_t i = 0; i < records.size(); ++i) {
    const ByteRecord& r = records[i];
    if (r.first_task < 0 || r.last_task > kMaxTaskIndex) {
      return InvalidArgumentError(RecordLabel(i, names) + " has tasks " + std::to_string(r.first_task) + ".." +
                                  std::to_string(r.last_task) + " outside 0.." + std::to_string(kMaxTaskIndex));
    }
    if (r.last_task < r.first_task) {
      return InvalidArgumentError(RecordLabel(i, names) + " has last task " + std::to_string(r.last_task) +
                                  " < first task " + std::to_string(r.first_task));
    }
    if (r.size > kMaxRecordBytes) {
      return InvalidArgumentError(RecordLabel(i, names) + " has size " + std::to_string(r.size) +
                                  " bytes, more than the limit of " + std::to_string(kMaxRecordBytes));
    }
    total += r.size;  // cannot wrap: at most 2^24 records of at most 2^48 bytes
    if (total > kMaxTotalBytes) {
      return InvalidArgumentError("the records up to " + RecordLabel(i, names) + " add up to " +
                                  std::to_string(total) + " bytes, more than the limit of " +
                                  std::to_string(kMaxTotalBytes) + " for a record set");
    }
  }
  return Status::Ok();
}

}  // namespace glpool
