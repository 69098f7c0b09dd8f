// How many tensors one task may bind on the current context, and the
// variadic split that follows from it.
//
// A task binds each tensor to its own binding point: an image unit for a
// texture, a storage-block binding for a buffer or an arena range. GLES 3.1
// guarantees only 4 of each to a compute shader
// (GL_MAX_COMPUTE_IMAGE_UNIFORMS, GL_MAX_COMPUTE_SHADER_STORAGE_BLOCKS);
// desktop drivers and llvmpipe report more. The kernels for Concat, Sum,
// Mean, Max and Min read at most kMaxKernelVariadicInputs inputs, so wider
// nodes run as trees (SplitWideVariadics) of what both allow.
#pragma once

#include <cstddef>
#include <cstdint>

#include "common/status.h"
#include "glpool/gpu_info.h"
#include "glpool/options.h"

namespace glpool {

// The binding points one task may use for tensors with `objects`:
// storage blocks for buffers and the arena; for textures the smaller of
// image units and storage blocks (a tensor too large for a texture, and
// kernels' weights, fall back to buffers). `override_bindings` > 0 (tests
// acting as a small device) lowers it further.
int64_t TaskBindingLimit(const GlInfo& info, ObjectKind objects, uint32_t override_bindings);

// The widest variadic node a task may run: one binding for the output,
// the rest inputs, at most kMaxKernelVariadicInputs. Fails, naming the
// limit, when fewer than three bindings (two inputs and the output) exist.
StatusOr<size_t> VariadicSplitWidth(const GlInfo& info, ObjectKind objects, uint32_t override_bindings);

}  // namespace glpool
