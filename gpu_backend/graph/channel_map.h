// Copies that only move channels: each output channel is one input channel
// at the same (n, h, w). ShuffleNet's channel shuffle (Reshape, Transpose,
// Reshape folded into one Transpose) and a Slice or Split along C that
// starts inside a slice are such copies. The kernels run them as a table
// lookup (shaders/channel_copy.comp) instead of the general strided copy's
// 8-dim index per lane; a graph pass composes them
// (passes.h FoldChannelTransposesIntoSlices).
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "common/status.h"
#include "glpool/layout.h"

namespace glpool {

// Row-major element strides of a shape.
std::vector<int64_t> RowMajorStrides(const Shape& shape);

// One output of a strided copy as strided_copy.cc views it: the output's
// row-major elements walk `shape`; the input element behind view index
// (i0, i1, ...) has the flat index base + sum(ik * strides[k]).
struct CopyView {
  std::vector<int64_t> shape;
  std::vector<int64_t> strides;
  int64_t base = 0;
};

// A Transpose's perm attribute, or ONNX's default (the dims reversed) when
// it has none.
std::vector<int64_t> PermOrReversed(std::vector<int64_t> perm, size_t rank);

// A Transpose's view: its input read as `read_as` (row-major, the shape a
// folded Reshape gives it), dims taken in `perm` order. InvalidModel when
// perm does not fit read_as.
StatusOr<CopyView> TransposeView(const Shape& read_as, const std::vector<int64_t>& perm);

// Copies of more elements than this are not examined (the check visits
// every element once, at session creation).
inline constexpr int64_t kMaxChannelCopyCheck = int64_t{1} << 22;

// The input channel of every output channel when the view moves channels
// only (input and output agree in N, H and W and every element keeps its
// n, h, w); nullopt otherwise.
std::optional<std::vector<int64_t>> ChannelMapOf(const Phwc4Layout& in, const Phwc4Layout& out,
                                                 const CopyView& view);

}  // namespace glpool
