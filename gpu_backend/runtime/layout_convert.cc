#include "gpu_backend/runtime/layout_convert.h"

#include "gpu_backend/graph/float16.h"

namespace glpool {

namespace {

// Calls visit(logical_index, texel_float_index) for every logical element.
template <typename Visit>
void ForEachElement(const Phwc4Layout& l, Visit visit) {
  size_t logical = 0;
  for (int64_t n = 0; n < l.n; ++n) {
    for (int64_t c = 0; c < l.c; ++c) {
      for (int64_t h = 0; h < l.h; ++h) {
        for (int64_t w = 0; w < l.w; ++w, ++logical) {
          const int64_t texel = ((c / 4) * l.rows() + n * l.h + h) * l.w + w;
          visit(logical, static_cast<size_t>(texel * 4 + c % 4));
        }
      }
    }
  }
}

}  // namespace

std::vector<float> ToPhwc4(const std::vector<float>& logical, const Phwc4Layout& layout) {
  std::vector<float> texels(static_cast<size_t>(layout.texels()) * 4, 0.0f);
  ForEachElement(layout, [&](size_t from, size_t to) { texels[to] = logical[from]; });
  return texels;
}

std::vector<float> FromPhwc4(const std::vector<float>& texels, const Phwc4Layout& layout) {
  std::vector<float> logical(static_cast<size_t>(layout.n * layout.c * layout.h * layout.w));
  ForEachElement(layout, [&](size_t to, size_t from) { logical[to] = texels[from]; });
  return logical;
}

std::vector<uint32_t> PackHalves(const std::vector<float>& values) {
  std::vector<uint32_t> packed((values.size() + 1) / 2, 0);
  for (size_t i = 0; i < values.size(); ++i) {
    packed[i / 2] |= static_cast<uint32_t>(FloatToHalf(values[i])) << (16 * (i % 2));
  }
  return packed;
}

std::vector<float> UnpackHalves(const std::vector<uint32_t>& packed) {
  std::vector<float> values(packed.size() * 2);
  for (size_t i = 0; i < values.size(); ++i) {
    values[i] = HalfToFloat(static_cast<uint16_t>(packed[i / 2] >> (16 * (i % 2))));
  }
  return values;
}

}  // namespace glpool
