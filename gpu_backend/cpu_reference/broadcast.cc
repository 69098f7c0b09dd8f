#include "gpu_backend/cpu_reference/broadcast.h"

#include <algorithm>

namespace glpool {
namespace cpu_reference {

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
