#include "gpu_backend/graph/channel_map.h"

namespace glpool {

std::vector<int64_t> RowMajorStrides(const Shape& shape) {
  std::vector<int64_t> strides(shape.size(), 1);
  for (size_t d = shape.size(); d-- > 1;) strides[d - 1] = strides[d] * shape[d];
  return strides;
}

std::vector<int64_t> PermOrReversed(std::vector<int64_t> perm, size_t rank) {
  if (perm.empty()) {
    for (size_t d = rank; d-- > 0;) perm.push_back(static_cast<int64_t>(d));
  }
  return perm;
}

StatusOr<CopyView> TransposeView(const Shape& read_as, const std::vector<int64_t>& perm) {
  const size_t rank = read_as.size();
  if (perm.size() != rank) return InvalidModelError("perm does not match the input rank");
  const std::vector<int64_t> strides = RowMajorStrides(read_as);
  CopyView view;
  for (int64_t p : perm) {
    if (p < 0 || p >= static_cast<int64_t>(rank)) return InvalidModelError("perm entry out of range");
    view.shape.push_back(read_as[static_cast<size_t>(p)]);
    view.strides.push_back(strides[static_cast<size_t>(p)]);
  }
  return view;
}

std::optional<std::vector<int64_t>> ChannelMapOf(const Phwc4Layout& in, const Phwc4Layout& out,
                                                 const CopyView& view) {
  if (in.n != out.n || in.h != out.h || in.w != out.w || view.shape.size() != view.strides.size()) {
    return std::nullopt;
  }
  int64_t count = 1;
  for (int64_t d : view.shape) count *= d;
  if (count != out.n * out.c * out.h * out.w || count == 0 || count > kMaxChannelCopyCheck) return std::nullopt;
  std::vector<int64_t> map(static_cast<size_t>(out.c), -1);
  // An odometer over the view: `f` is the output's flat index, `g` the
  // input's; both decompose as N x C x H x W in their own layouts.
  std::vector<int64_t> index(view.shape.size(), 0);
  int64_t g = view.base;
  for (int64_t f = 0; f < count; ++f) {
    const int64_t w = f % out.w, h = f / out.w % out.h, c = f / (out.w * out.h) % out.c,
                  n = f / (out.w * out.h * out.c);
    const int64_t gw = g % in.w, gh = g / in.w % in.h, gc = g / (in.w * in.h) % in.c,
                  gn = g / (in.w * in.h * in.c);
    if (g < 0 || gn != n || gh != h || gw != w) return std::nullopt;
    int64_t& mapped = map[static_cast<size_t>(c)];
    if (mapped < 0) mapped = gc;
    if (mapped != gc) return std::nullopt;
    for (size_t k = index.size(); k-- > 0;) {  // the next view index, its last dim fastest
      g += view.strides[k];
      if (++index[k] < view.shape[k]) break;
      g -= view.strides[k] * view.shape[k];
      index[k] = 0;
    }
  }
  return map;
}

}  // namespace glpool
