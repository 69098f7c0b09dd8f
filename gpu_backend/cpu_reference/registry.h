// The CPU reference's op registry: one explicit table from ONNX op name to
// kernel and the opset range whose semantics the kernel implements.
//
// The importer and `glpool test-onnx` ask it which ops are supported, so an
// unsupported op is named before anything runs.
#pragma once

#include <string>
#include <vector>

#include "gpu_backend/cpu_reference/kernel.h"

namespace glpool {
namespace cpu_reference {

// The highest default-domain opset the kernels implement (the ONNX 1.16
// operator set): the changes opsets 18-21 made to these ops (Reduce* axes
// input, Split num_outputs, Pad axes and wrap, Resize antialias/axes/
// keep_aspect_ratio_policy/half_pixel_symmetric, AveragePool dilations,
// ReduceMax/Min on bool, GroupNormalization's per-channel scale) are
// implemented; the other revisions only added element types.
inline constexpr int64_t kMaxCheckedOpset = 21;

struct OpKernelInfo {
  const char* op_type;
  int64_t since_opset;  // first opset whose semantics `run` implements
  int64_t until_opset;  // last one (inclusive)
  KernelFn run;
  // Whether the kernel sees float16/float64 inputs as they are. Values hold
  // every float in fp32: for the other kernels the executor passes float16
  // inputs as float32 and rounds their float32 outputs to float16, and
  // refuses float64 with a reason; kernels that convert (Cast) or read no
  // numbers (Shape) take both.
  bool accepts_wide_floats = false;
};

const std::vector<OpKernelInfo>& RegisteredKernels();

// Ops that only the GPU session's own rewrites create (graph/winograd.h),
// never imported from a model: FindKernel finds them at any opset, so
// that they run on the CPU reference too, but IsSupportedOp, SupportedOps
// and `glpool ops` leave them out.
const std::vector<OpKernelInfo>& InternalKernels();
bool IsInternalOp(const std::string& op_type);

// The kernel for `op_type` at `opset`; nullptr when none (unknown op, or an
// opset outside every registered range).
const OpKernelInfo* FindKernel(const std::string& op_type, int64_t opset);

// Why FindKernel(op_type, opset) found nothing, in one phrase.
std::string UnsupportedReason(const std::string& op_type, int64_t opset);

// Whether some opset of `op_type` is supported (default ONNX domain).
bool IsSupportedOp(const std::string& op_type);

// Every supported op name, sorted.
std::vector<std::string> SupportedOps();

}  // namespace cpu_reference
}  // namespace glpool
