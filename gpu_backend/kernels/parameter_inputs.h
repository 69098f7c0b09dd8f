// Parameter inputs: operands GPU kernels read while their shader is built
// (axes, pads, scales, slice bounds, shapes), not while it runs. The GPU
// compiles a graph once with static shapes, so a graph input in such a slot
// must be known before compile: a runner binds its value as a constant
// (as ONNX's test cases need, which feed e.g. Resize's scales at run time).
#pragma once

#include <cstddef>
#include <string>

namespace glpool {

// Whether input `index` of an `op_type` node is a parameter input.
bool IsParameterInput(const std::string& op_type, size_t index);

}  // namespace glpool
