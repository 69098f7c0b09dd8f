// glpool/ops.h over the internal registries: nothing here decides what is
// supported, it only reads the tables that do.
#include "glpool/ops.h"

#include <map>

#include "gpu_backend/cpu_reference/registry.h"
#include "gpu_backend/graph/fused_activation.h"
#include "gpu_backend/graph/passes/fusion_util.h"
#include "gpu_backend/import/constant_folding.h"
#include "gpu_backend/import/op_signatures.h"
#include "gpu_backend/kernels/kernel.h"
#include "gpu_backend/kernels/kernel_notes.h"
#include "gpu_backend/kernels/parameter_inputs.h"

namespace glpool {
namespace {

// ONNX ops take at most a handful of parameter inputs; Slice's five is the
// most among glpool's ops.
constexpr int kMaxParameterSlot = 8;

}  // namespace

std::vector<OnnxOpInfo> SupportedOnnxOps() {
  // The CPU reference lists every supported op; an op may have several
  // entries (opset ranges), merged here into one span.
  std::map<std::string, OnnxOpInfo> ops;
  for (const cpu_reference::OpKernelInfo& kernel : cpu_reference::RegisteredKernels()) {
    auto [it, added] = ops.try_emplace(kernel.op_type);
    OnnxOpInfo& info = it->second;
    if (added) {
      info.name = kernel.op_type;
      info.since_opset = kernel.since_opset;
      info.until_opset = kernel.until_opset;
    } else {
      info.since_opset = std::min(info.since_opset, kernel.since_opset);
      info.until_opset = std::max(info.until_opset, kernel.until_opset);
    }
    info.wide_float_inputs = info.wide_float_inputs || kernel.accepts_wide_floats;
  }
  for (auto& [name, info] : ops) {
    const KernelEntry* gpu = FindKernel(name);
    info.gpu_kernel = gpu != nullptr;
    if (gpu != nullptr) {
      info.gpu_limits = GpuKernelNotesFor(name, gpu->build);
      for (int slot = 0; slot < kMaxParameterSlot; ++slot) {
        if (IsParameterInput(name, static_cast<size_t>(slot))) info.compile_time_inputs.push_back(slot);
      }
    }
    if (name == "LSTM" || name == "GRU") {
      // gpu_backend/graph/passes/lower_recurrent.cc (passes.h, LowerRecurrent).
      info.gpu_lowering = "unrolled into GPU tasks when layout 0, default activations, no clip, constant weights, "
                          "full-length sequences of at most 256 steps";
    }
    info.takes_fused_activation = TakesFusedActivation(name);
    info.fusable_activation = IsFusableActivation(name);
    info.folded_at_import = IsFoldableOp(name);
  }
  std::vector<OnnxOpInfo> sorted;
  for (auto& [name, info] : ops) sorted.push_back(std::move(info));
  return sorted;
}

std::vector<std::string> FusableActivations() { return FusableActivationTypes(); }

int64_t MinOnnxOpset() { return kMinSupportedOpset; }
int64_t MaxOnnxOpset() { return kMaxSupportedOpset; }

}  // namespace glpool
