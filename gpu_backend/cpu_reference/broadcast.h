// Numpy-style (ONNX "multidirectional") broadcasting for elementwise kernels.
//
// Iteration is an odometer over the output with one stride per input (0
// where that input is broadcast), so a large same-shape Add costs one add
// per element and no index division.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "common/status.h"
#include "gpu_backend/graph/graph.h"

namespace glpool {
namespace cpu_reference {

// The broadcast of two shapes (graph.h), or an error quoting both.
using ::glpool::BroadcastShapes;

// Strides of `in` seen through `out` (right-aligned; 0 on broadcast dims).
// `in` must broadcast to `out`.
std::vector<int64_t> BroadcastStrides(const Shape& in, const Shape& out);

// Calls visit(out_index, offsets) for every output element in row-major
// order; offsets[k] is the flat index into input k.
template <size_t N, typename Visit>
void ForEachBroadcast(const Shape& out, const std::array<std::vector<int64_t>, N>& strides,
                      Visit&& visit) {
  const int64_t total = ElementCount(out);
  if (total == 0) return;
  const size_t rank = out.size();
  std::array<int64_t, N> offsets{};
  if (rank == 0) {
    visit(int64_t{0}, offsets);
    return;
  }
  const int64_t inner = out[rank - 1];
  std::array<int64_t, N> inner_stride;
  for (size_t k = 0; k < N; ++k) inner_stride[k] = strides[k][rank - 1];
  std::vector<int64_t> counter(rank, 0);
  int64_t out_index = 0;
  while (out_index < total) {
    std::array<int64_t, N> row = offsets;
    for (int64_t i = 0; i < inner; ++i) {
      visit(out_index++, row);
      for (size_t k = 0; k < N; ++k) row[k] += inner_stride[k];
    }
    // Advance the odometer over the outer dimensions.
    for (int64_t d = static_cast<int64_t>(rank) - 2; d >= 0; --d) {
      ++counter[d];
      for (size_t k = 0; k < N; ++k) offsets[k] += strides[k][d];
      if (counter[d] < out[d]) break;
      for (size_t k = 0; k < N; ++k) offsets[k] -= strides[k][d] * counter[d];
      counter[d] = 0;
    }
  }
}

}  // namespace cpu_reference
}  // namespace glpool
