// Assembling a kernel's GLSL: the kernel body from shaders/<op>.comp plus a
// generated preamble that declares each bound tensor and its accessors.
//
// A kernel names its tensors on its second line:
//   // glpool-tensors: in0 in1 out0
//   // glpool-weights: weights bias          (optional: constant SSBOs of vec4)
// Roles in square brackets are optional and bound only when the node has
// them, as a suffix of the inputs or of the outputs (Concat's inputs, Split's
// outputs): `// glpool-tensors: in0 [in1 in2 in3] out0`. The kernel tests
// for an optional role with `#ifdef in2_N`; build-time validation binds all.
// For every tensor role R the preamble defines R_N, R_C, R_H, R_W, R_S
// (slices), R_ROWS (= N * H) and:
//   vec4 R_load(int x, int y, int s)          inputs: one PHWC4 texel
//   float R_load_scalar(int n, int c, int h, int w)
//   void R_store(int x, int y, int s, vec4 v) outputs
// and for every weight buffer B: `B_data[i]`, a readonly vec4 array.
// The storage behind a role (2D texture, 2D-array texture, SSBO; fp32 or
// fp16) changes only the preamble, never the kernel: the same kernel text
// runs on every object kind and precision.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "common/status.h"
#include "gpu_backend/graph/phwc4_layout.h"

namespace glpool {

// StorageKind and StorageKindName come from glpool/layout.h.

struct TensorBinding {
  std::string role;          // "in0", "out0", ...
  bool is_output = false;
  StorageKind storage = StorageKind::kBuffer;
  bool fp16 = false;         // rgba16f texture or packed halves in a buffer
  Phwc4Layout layout;
  uint32_t binding = 0;      // image unit for textures, SSBO binding for buffers
  // Non-empty (buffer inputs only): the tensor is read with texelFetch on a
  // samplerBuffer view of its buffer at texture unit `texture_unit`, and
  // this is the #extension line for it. llvmpipe loads a storage buffer
  // lane by lane but fetches texels as one gather: a depthwise conv read
  // 1.5x faster this way.
  std::string texture_buffer_directive;
  uint32_t texture_unit = 0;
  // A window of a larger tensor's object (compile.h TensorStorage): the
  // accessors add this many slices; the object's other slices belong to
  // the tensors beside it.
  int64_t slice_base = 0;
};

struct WeightBinding {
  std::string name;          // as in the kernel's glpool-weights line
  uint32_t binding = 0;      // SSBO binding, or uniform-buffer binding when uniform_vec4s > 0
  // > 0: the weights are a uniform block of this many vec4s. Drivers serve
  // uniform loads far better than storage-buffer loads (llvmpipe: one
  // broadcast load where the index is uniform, a vector gather otherwise,
  // against a scalar loop over the lanes for a storage buffer).
  uint32_t uniform_vec4s = 0;
  // true: the weights are an RGBA32F texture read with texelFetch through
  // texture unit `binding`, vec4 i at (i % kWeightTextureWidth, i /
  // kWeightTextureWidth). For weights too large for a uniform block:
  // llvmpipe loads a storage buffer lane by lane (an extract, a bounds check
  // and a branch per lane and component) but fetches texels as one vector
  // gather, so a 1x1 conv with 1.6 MB of weights ran several times faster.
  bool texture = false;
  // Non-empty: the weights are a texture buffer of RGBA32F texels read with
  // texelFetch(samplerBuffer, i) through texture unit `binding`, and this is
  // the #extension line that lets a GLSL ES 3.10 shader name one.
  std::string texture_buffer_directive;
};

// Texels per row of a weights texture (a power of two: the shader splits
// the index with a mask and a shift).
inline constexpr uint32_t kWeightTextureWidth = 4096;
inline constexpr uint32_t kWeightTextureShift = 12;

// The roles a kernel declares on its glpool-tensors / glpool-weights lines.
struct KernelInterface {
  std::vector<std::string> inputs;
  std::vector<std::string> outputs;
  std::vector<std::string> weights;
  size_t required_inputs = 0;   // roles before the first bracketed one
  size_t required_outputs = 0;
};
StatusOr<KernelInterface> ParseKernelInterface(const std::string& name, const std::string& source);

// The full shader: #version line, defines, preamble, then the kernel body.
// Fails when the bindings do not match the kernel's declared interface.
StatusOr<std::string> AssembleKernel(const std::string& name, const std::string& source,
                                     const std::vector<std::pair<std::string, std::string>>& defines,
                                     const std::vector<TensorBinding>& tensors,
                                     const std::vector<WeightBinding>& weights);

// A kernel assembled with every declared role bound to `storage` at an odd
// layout (1x5x7x13): what the build validates and tests compile, so a kernel
// is checked exactly as the runtime will assemble it.
StatusOr<std::string> AssembleRepresentative(const std::string& name, const std::string& source,
                                             StorageKind storage, bool fp16);

}  // namespace glpool
