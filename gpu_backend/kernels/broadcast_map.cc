#include "gpu_backend/kernels/broadcast_map.h"

#include <vector>

#include "gpu_backend/graph/phwc4_layout.h"
#include "gpu_backend/kernels/logical_index.h"

namespace glpool {

std::string BroadcastMap::Glsl() const {
  return "ivec4(" + std::to_string(axes[0]) + ", " + std::to_string(axes[1]) + ", " + std::to_string(axes[2]) +
         ", " + std::to_string(axes[3]) + ")";
}

StatusOr<BroadcastMap> MapBroadcast(const Shape& input, const Shape& output) {
  BroadcastMap map;
  const size_t ri = input.size();
  const size_t r = output.size();
  if (ri > r) return InvalidModelError("input rank above the output's in a broadcast");
  if (input == output) {
    map.same = true;
    return map;
  }
  // Per output axis: how many output dims of size > 1 it folds together.
  std::array<int, 4> folded{0, 0, 0, 0};
  for (size_t d = 0; d < r; ++d) {
    if (output[d] > 1) ++folded[Phwc4AxisOf(d, r)];
  }
  map.axes = {-1, -1, -1, -1};
  for (size_t j = 0; j < ri; ++j) {
    if (input[j] == 1) continue;
    const size_t d = j + (r - ri);
    if (input[j] != output[d]) {
      return InvalidModelError("shape " + ShapeToString(input) + " does not broadcast to " + ShapeToString(output));
    }
    const int in_axis = Phwc4AxisOf(j, ri);
    const int out_axis = Phwc4AxisOf(d, r);
    if (map.axes[in_axis] != -1 && map.axes[in_axis] != out_axis) {
      return UnsupportedError("broadcasting " + ShapeToString(input) + " to " + ShapeToString(output) +
                              " mixes folded dimensions");
    }
    if (folded[out_axis] > 1 && !(ri == r && input == output)) {
      // The output axis folds several dims; its coordinate is not this dim's.
      bool all_match = true;
      for (size_t dd = 0; dd < r; ++dd) {
        if (Phwc4AxisOf(dd, r) != out_axis) continue;
        const int64_t in_dim = dd < r - ri ? 1 : input[dd - (r - ri)];
        if (in_dim != output[dd] || Phwc4AxisOf(dd - (r - ri), ri) != in_axis) all_match = false;
      }
      if (!all_match) {
        return UnsupportedError("broadcasting " + ShapeToString(input) + " to " + ShapeToString(output) +
                                " inside folded middle dimensions");
      }
    }
    map.axes[in_axis] = out_axis;
  }
  return map;
}

}  // namespace glpool
