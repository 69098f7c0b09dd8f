// Training-mode Dropout with a `seed` attribute keeps exactly the elements
// ONNX's reference keeps: numpy.random.RandomState(seed).uniform(0, 1, n)
// (MT19937, 53-bit doubles from pairs of outputs), keep where u >= ratio.
// The mask depends only on the seed and the element count, so both the CPU
// reference and the GPU's graph pass compute it here.
#pragma once

#include <cstdint>
#include <vector>

namespace glpool {

// 1 where element i is kept, 0 where it is dropped.
std::vector<uint8_t> SeededDropoutMask(int64_t seed, int64_t count, float ratio);

}  // namespace glpool
