#include "samples/overlay/read_pixels.h"

#include <algorithm>

#include "samples/gl_check.h"

namespace glpool::overlay {

StatusOr<std::vector<uint8_t>> ReadFramebufferRgba8(int width, int height) {
  std::vector<uint8_t> bottom_up(static_cast<size_t>(width) * height * 4);
  SAMPLE_GL_CALL(glPixelStorei(GL_PACK_ALIGNMENT, 4));
  SAMPLE_GL_CALL(glReadPixels(0, 0, width, height, GL_RGBA, GL_UNSIGNED_BYTE, bottom_up.data()));
  // GL's row 0 is the bottom one.
  std::vector<uint8_t> top_down(bottom_up.size());
  const size_t row = static_cast<size_t>(width) * 4;
  for (int y = 0; y < height; ++y) {
    std::copy_n(bottom_up.data() + static_cast<size_t>(height - 1 - y) * row, row, top_down.data() + y * row);
  }
  return top_down;
}

}  // namespace glpool::overlay
