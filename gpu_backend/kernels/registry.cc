// The one explicit list of GPU kernels: ONNX op -> descriptor.
#include "gpu_backend/kernels/kernel.h"
#include "gpu_backend/kernels/kernel_ops.h"

namespace glpool {

const std::vector<KernelEntry>& KernelRegistry() {
  static const std::vector<KernelEntry> kernels = {
      {"Add", BuildElementwiseBinary},
      {"Sub", BuildElementwiseBinary},
      {"Mul", BuildElementwiseBinary},
      {"Div", BuildElementwiseBinary},
      {"Pow", BuildElementwiseBinary},
  };
  return kernels;
}

const KernelEntry* FindKernel(const std::string& op_type) {
  for (const KernelEntry& entry : KernelRegistry()) {
    if (op_type == entry.op_type) return &entry;
  }
  return nullptr;
}

}  // namespace glpool
