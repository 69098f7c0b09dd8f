// PHWC4: how glpool lays a tensor of any rank out on the GPU, and the GL
// object kinds that hold it. Apps need this only to bind their own objects
// zero-copy (GpuLayout::kPhwc4Buffer) or to read the pool's report.
//
// A logical shape maps to four dimensions N, C, H, W:
//   rank 0: 1,1,1,1      rank 1 [c]: 1,c,1,1     rank 2 [n,c]: n,c,1,1
//   rank 3 [n,c,w]: n,c,1,w                      rank 4: n,c,h,w
//   rank 5+ [n,c,d...,w]: n, c, product of the middle dims, w
// Channels are grouped in fours: slice s holds channels 4s..4s+3 (the last
// slice zero-padded). One texel (vec4) holds one slice at one (x, y), where
// x = w and y = n * H + h, batch folded into rows. Storage order is slice,
// then row, then column: texel index (s * N * H + y) * W + x.
//
// Two tensors whose shapes map to the same N, C, H, W share a layout, which
// is what makes a Reshape free (an alias) rather than a copy.
#pragma once

#include <cstdint>

#include "glpool/export.h"
#include "glpool/tensor.h"

namespace glpool {

struct Phwc4Layout {
  int64_t n = 1;
  int64_t c = 1;
  int64_t h = 1;
  int64_t w = 1;

  int64_t slices() const { return (c + 3) / 4; }
  int64_t rows() const { return n * h; }              // y extent of one slice
  int64_t texels() const { return slices() * rows() * w; }
  bool operator==(const Phwc4Layout& o) const { return n == o.n && c == o.c && h == o.h && w == o.w; }
  bool operator!=(const Phwc4Layout& o) const { return !(*this == o); }
};

GLPOOL_API Phwc4Layout LayoutOf(const Shape& shape);

// The GL object kinds that hold tensors.
enum class StorageKind { kTexture2D, kTexture2DArray, kBuffer };
GLPOOL_API const char* StorageKindName(StorageKind kind);

}  // namespace glpool
