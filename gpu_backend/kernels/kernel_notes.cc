#include "gpu_backend/kernels/kernel_notes.h"

#include "gpu_backend/kernels/kernel_ops.h"

namespace glpool {

// Phrases follow the descriptors' kUnsupported errors. What every kernel
// shares (at most 2^31 elements a tensor, dtypes the GPU stores) is not
// repeated; inputs needed at compile time come from parameter_inputs.h.
const std::vector<GpuKernelNote>& GpuKernelNotes() {
  static const std::vector<GpuKernelNote> notes = {
      {BuildElementwiseBinary, {}, "broadcasts whose input dims map onto the output's PHWC4 axes"},
      {BuildElementwiseBinary, {"Sum", "Mean", "Max", "Min"}, "wider than a task may bind (7 inputs, fewer where the context allows fewer) run as a tree of tasks"},
      {BuildConcat, {}, "wider than a task may bind (7 inputs, fewer where the context allows fewer) run as a tree of tasks; every input empty: CPU"},
      {BuildPool, {}, "1-D to 3-D windows"},
      {BuildPool, {"MaxPool"}, "Indices output for inputs under 2^24 elements"},
      {BuildResize, {}, "3-D and 4-D inputs, spatial axes only; nearest, linear, cubic; antialias up to 1024 taps"},
      {BuildElementwiseUnary, {"Cast", "CastLike"}, "to float, integer or bool types the GPU stores"},
      {BuildConv, {"Conv"}, "weights computed at run time take a slower kernel and need a constant bias"},
      {BuildMatMul, {}, "ranks up to 4 (batch dims beyond 2 fold into H)"},
      {BuildStridedCopy, {}, "ranks up to 8"},
      {BuildStridedCopy, {"Split"}, "at most 7 outputs, each one named"},
      {BuildStridedCopy, {"Dropout"}, "inference mode only, output 0 named"},
      {BuildPad, {}, "ranks 1 to 4; modes constant, reflect, edge, and wrap from opset 19"},
      {BuildReduce, {}, "ranks up to 8; an empty reduced axis: CPU"},
      {BuildBatchNormalization, {}, "training mode only through the default graph passes (fp32)"},
      {BuildNormalization, {"LayerNormalization"}, "InvStdDev output only with the Mean output"},
      {BuildGroupNormalization, {}, "at most 65535 batch items or channel chunks"},
      {BuildArgExtreme, {}, "axes of at most 2^24 elements (indices exact in float)"},
      {BuildGather, {}, "ranks up to 8; axes of at most 2^24 elements"},
  };
  return notes;
}

std::string GpuKernelNotesFor(const std::string& op_type, KernelBuilder builder) {
  std::string joined;
  for (const GpuKernelNote& note : GpuKernelNotes()) {
    if (note.builder != builder) continue;
    bool concerns = note.ops.empty();
    for (const char* op : note.ops) concerns = concerns || op_type == op;
    if (concerns) joined += (joined.empty() ? "" : "; ") + std::string(note.text);
  }
  return joined;
}

}  // namespace glpool
