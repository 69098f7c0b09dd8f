#include "gpu_backend/cpu_reference/layout_util.h"

#include <algorithm>

#include "gpu_backend/cpu_reference/broadcast.h"

namespace glpool {
namespace cpu_reference {

Value EmptyLike(const Value& like, const Shape& shape) {
  Value out;
  out.dtype = like.dtype;
  out.shape = shape;
  if (like.is_floating()) {
    out.floats.resize(ElementCount(shape));
  } else {
    out.ints.resize(ElementCount(shape));
  }
  return out;
}

Value StridedCopy(const Value& in, const Shape& out_shape, const std::vector<int64_t>& in_strides,
                  int64_t base) {
  Value out = EmptyLike(in, out_shape);
  const std::array<std::vector<int64_t>, 1> strides = {in_strides};
  if (in.is_floating()) {
    ForEachBroadcast<1>(out_shape, strides, [&](int64_t i, const std::array<int64_t, 1>& o) {
      out.floats[i] = in.floats[base + o[0]];
    });
  } else {
    ForEachBroadcast<1>(out_shape, strides, [&](int64_t i, const std::array<int64_t, 1>& o) {
      out.ints[i] = in.ints[base + o[0]];
    });
  }
  return out;
}

void CopyElements(const Value& in, int64_t in_offset, Value& out, int64_t out_offset,
                  int64_t count) {
  if (in.is_floating()) {
    std::copy_n(in.floats.begin() + in_offset, count, out.floats.begin() + out_offset);
  } else {
    std::copy_n(in.ints.begin() + in_offset, count, out.ints.begin() + out_offset);
  }
}

}  // namespace cpu_reference
}  // namespace glpool
