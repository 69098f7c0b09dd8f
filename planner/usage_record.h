// Tensor usage records: what the planner consumes.
//
// A record says a tensor of `size` is live from task `first_task` to task
// `last_task`, both inclusive. Inclusive ranges give single-shader
// exclusivity for free: an op's inputs and outputs all contain its task, so
// no plan may give them the same object or overlapping arena bytes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace glpool {

using TaskId = int64_t;

// Texture extents in texels (PHWC4: one RGBA texel holds four channels).
struct Extent2D {
  uint64_t w = 0;
  uint64_t h = 0;
  bool operator==(const Extent2D& o) const { return w == o.w && h == o.h; }
  bool operator!=(const Extent2D& o) const { return !(*this == o); }
};

struct Extent3D {
  uint64_t w = 0;
  uint64_t h = 0;
  uint64_t d = 0;
  bool operator==(const Extent3D& o) const { return w == o.w && h == o.h && d == o.d; }
  bool operator!=(const Extent3D& o) const { return !(*this == o); }
};

inline uint64_t Texels(uint64_t bytes) { return bytes; }
inline uint64_t Texels(const Extent2D& e) { return e.w * e.h; }
inline uint64_t Texels(const Extent3D& e) { return e.w * e.h * e.d; }

template <typename Size>
struct UsageRecord {
  Size size{};
  TaskId first_task = 0;
  TaskId last_task = 0;
};

using ByteRecord = UsageRecord<uint64_t>;
using Extent2DRecord = UsageRecord<Extent2D>;
using Extent3DRecord = UsageRecord<Extent3D>;

// A named set of byte records, as stored in ../shared/zoo/records/*.json.
struct RecordSet {
  std::string model;
  TaskId tasks = 0;
  std::vector<std::string> names;     // names[i] belongs to records[i]
  std::vector<ByteRecord> records;
};

}  // namespace glpool
