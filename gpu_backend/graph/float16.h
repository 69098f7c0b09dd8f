// IEEE 754 half <-> single precision conversion for fp16 tensor data
// (ONNX float16 initializers, fp16 test inputs). Round-to-nearest-even;
// infinities, NaNs and subnormals survive both ways.
#pragma once

#include <cstdint>

namespace glpool {

float HalfToFloat(uint16_t half);
uint16_t FloatToHalf(float value);

}  // namespace glpool
