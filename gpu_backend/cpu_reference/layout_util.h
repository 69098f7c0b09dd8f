// Element copies shared by the data-movement kernels (Transpose, Slice,
// Expand, DepthToSpace...). They work on float and integer values alike.
#pragma once

#include <cstdint>
#include <vector>

#include "gpu_backend/cpu_reference/value.h"

namespace glpool {
namespace cpu_reference {

// out[i] = in[base + sum_d index_d(i) * in_strides[d]] over out_shape in
// row-major order: a transpose, a strided slice or a broadcast, depending on
// the strides. in_strides has one entry per output dim.
Value StridedCopy(const Value& in, const Shape& out_shape, const std::vector<int64_t>& in_strides,
                  int64_t base = 0);

// An empty value of `like`'s dtype and the given shape (storage sized).
Value EmptyLike(const Value& like, const Shape& shape);

// Copies `count` elements from in[in_offset] to out[out_offset] (same dtype).
void CopyElements(const Value& in, int64_t in_offset, Value& out, int64_t out_offset,
                  int64_t count);

}  // namespace cpu_reference
}  // namespace glpool
