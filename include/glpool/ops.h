// The ONNX ops glpool supports (default domain), as its own registries say:
// the CPU reference's op table (every supported op, with the opset range
// whose semantics it implements; the oracle, and the per-node fallback in
// GPU sessions), the GPU kernel registry, the activation-fusion lists, the
// import-time folding list and the inputs GPU kernels need at compile time.
// `glpool ops [--json]` prints it.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "glpool/export.h"

namespace glpool {

struct OnnxOpInfo {
  std::string name;          // ONNX op type
  int64_t since_opset = 0;   // first opset whose semantics glpool implements
  int64_t until_opset = 0;   // last one (inclusive)
  // A GPU kernel; false: CPU-only — it runs on the CPU reference, inside GPU
  // sessions through the per-node fallback (SessionOptions::cpu_fallback).
  bool gpu_kernel = false;
  // What the GPU kernel hands to the fallback ("" when nothing is known to).
  std::string gpu_limits;
  // CPU-only ops a graph pass rewrites into GPU ops where it can (LSTM and
  // GRU are unrolled): when it does; "" for none.
  std::string gpu_lowering;
  // Input slots (ONNX numbering) the GPU kernel reads while its shader is
  // built: they must be constants or fold at import.
  std::vector<int> compile_time_inputs;
  // The graph passes fuse a following activation (fusable_activations())
  // into this op's kernel.
  bool takes_fused_activation = false;
  // This op is one of those activations.
  bool fusable_activation = false;
  // Import evaluates it when its inputs are known (shape arithmetic).
  bool folded_at_import = false;
  // The CPU reference kernel takes float16 / float64 inputs (it converts
  // them or reads no numbers, as Cast and Shape); for other ops the CPU
  // reference refuses such inputs naming the op.
  bool wide_float_inputs = false;
};

// Every supported op, sorted by name.
GLPOOL_API std::vector<OnnxOpInfo> SupportedOnnxOps();

// The activations the graph passes fuse into a producer, in the order the
// shaders number them.
GLPOOL_API std::vector<std::string> FusableActivations();

// The default-domain opsets a model may declare.
GLPOOL_API int64_t MinOnnxOpset();
GLPOOL_API int64_t MaxOnnxOpset();

}  // namespace glpool
