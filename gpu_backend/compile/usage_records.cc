#include "gpu_backend/compile/usage_records.h"

namespace glpool {

const char* PrecisionName(Precision precision) { return precision == Precision::kFp16 ? "fp16" : "fp32"; }

uint64_t BytesPerChannel(Precision precision) { return precision == Precision::kFp16 ? 2 : 4; }

uint64_t Phwc4Bytes(const Phwc4Layout& layout, Precision precision) {
  return static_cast<uint64_t>(layout.texels()) * 4 * BytesPerChannel(precision);
}

Extent2D Phwc4Extent2D(const Phwc4Layout& layout) {
  return {static_cast<uint64_t>(layout.w), static_cast<uint64_t>(layout.rows() * layout.slices())};
}

Extent3D Phwc4Extent3D(const Phwc4Layout& layout) {
  return {static_cast<uint64_t>(layout.w), static_cast<uint64_t>(layout.rows()), static_cast<uint64_t>(layout.slices())};
}

namespace {

template <typename Size, typename SizeFn>
std::vector<UsageRecord<Size>> Records(const CompiledGraph& compiled, SizeFn size) {
  std::vector<UsageRecord<Size>> records;
  records.reserve(compiled.pooled.size());
  for (const PooledTensor& tensor : compiled.pooled) {
    records.push_back({size(tensor.layout), tensor.first_task, tensor.last_task});
  }
  return records;
}

}  // namespace

std::vector<ByteRecord> BufferRecords(const CompiledGraph& compiled, Precision precision) {
  return Records<uint64_t>(compiled, [precision](const Phwc4Layout& b) { return Phwc4Bytes(b, precision); });
}

std::vector<Extent2DRecord> Texture2DRecords(const CompiledGraph& compiled) {
  return Records<Extent2D>(compiled, Phwc4Extent2D);
}

std::vector<Extent3DRecord> Texture3DRecords(const CompiledGraph& compiled) {
  return Records<Extent3D>(compiled, Phwc4Extent3D);
}

RecordSet ToRecordSet(const CompiledGraph& compiled, Precision precision, const std::string& model) {
  RecordSet set;
  set.model = model;
  set.tasks = static_cast<TaskId>(compiled.tasks.size());
  set.records = BufferRecords(compiled, precision);
  for (const PooledTensor& tensor : compiled.pooled) set.names.push_back(tensor.name);
  return set;
}

}  // namespace glpool
