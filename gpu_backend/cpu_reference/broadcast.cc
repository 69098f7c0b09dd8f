#include "gpu_backend/cpu_reference/broadcast.h"

#include <algorithm>

namespace glpool {
namespace cpu_reference {

StatusOr<Shape> BroadcastShapes(const Shape& a, const Shape& b) {
  const size_t rank = std::max(a.size(), b.size());
  Shape out(rank);
  for (size_t i = 0; i < rank; ++i) {
    const int64_t da = i < rank - a.size() ? 1 : a[i - (rank - a.size())];
    const int64_t db = i < rank - b.size() ? 1 : b[i - (rank - b.size())];
    if (da != db && da != 1 && db != 1) {
      return InvalidModelError("shapes " + ShapeToString(a) + " and " + ShapeToString(b) +
                               " do not broadcast");
    }
    out[i] = da == 1 ? db : da;
  }
  return out;
}

std::vector<int64_t> BroadcastStrides(const Shape& in, const Shape& out) {
  std::vector<int64_t> strides(out.size(), 0);
  int64_t stride = 1;
  for (size_t k = 0; k < in.size(); ++k) {
    const size_t in_dim = in.size() - 1 - k;
    const size_t out_dim = out.size() - 1 - k;
    strides[out_dim] = in[in_dim] == 1 ? 0 : stride;
    stride *= in[in_dim];
  }
  return strides;
}

}  // namespace cpu_reference
}  // namespace glpool
