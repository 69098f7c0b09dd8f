#include "gpu_backend/graph/phwc4_layout.h"

namespace glpool {

Phwc4Layout LayoutOf(const Shape& shape) {
  Phwc4Layout layout;
  const size_t rank = shape.size();
  if (rank == 1) layout.c = shape[0];
  if (rank >= 2) {
    layout.n = shape[0];
    layout.c = shape[1];
  }
  if (rank >= 3) layout.w = shape[rank - 1];
  for (size_t i = 2; i + 1 < rank; ++i) layout.h *= shape[i];
  return layout;
}

}  // namespace glpool
