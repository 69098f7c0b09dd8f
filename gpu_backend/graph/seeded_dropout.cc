#include "gpu_backend/graph/seeded_dropout.h"

#include <random>

namespace glpool {

std::vector<uint8_t> SeededDropoutMask(int64_t seed, int64_t count, float ratio) {
  std::mt19937 generator(static_cast<uint32_t>(seed));
  std::vector<uint8_t> keep(static_cast<size_t>(count));
  for (uint8_t& k : keep) {
    const uint32_t a = generator() >> 5, b = generator() >> 6;
    const double u = (a * 67108864.0 + b) / 9007199254740992.0;
    k = u >= ratio ? 1 : 0;
  }
  return keep;
}

}  // namespace glpool
