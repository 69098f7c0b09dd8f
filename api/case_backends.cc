#include "api/case_backends.h"

#include <memory>

#include "gpu_backend/cpu_reference/executor.h"
#include "gpu_backend/cpu_reference/registry.h"
#include "gpu_backend/graph/passes/passes.h"
#include "gpu_backend/import/constant_folding.h"
#include "gpu_backend/kernels/kernel.h"
#include "gpu_backend/kernels/parameter_inputs.h"
#include "gpu_backend/runtime/fp16_calibration.h"

namespace glpool {
namespace {

// Ops the GPU may meet: those with a kernel, those the default passes
// remove (Identity, Dropout), and those import folds into constants when
// their inputs are known (Shape, Range...), or inlines (If, when import
// knows its condition). A node that survives import without a kernel makes
// the executor say so, and the case unsupported.
bool GpuSupportsOp(const std::string& op_type) {
  return FindKernel(op_type) != nullptr || op_type == "Identity" || op_type == "Dropout" || op_type == "If" ||
         IsFoldableOp(op_type);
}

}  // namespace

Tolerance GpuTolerance(const std::string& dir, bool fp16) {
  Tolerance tolerance = ToleranceForCaseDir(dir);
  if (tolerance.kind == Tolerance::Kind::kRelativeToMax) {
    tolerance.relative = fp16 ? 3e-2 : 1e-3;
  } else if (fp16) {
    tolerance.rtol = 3e-2;
    tolerance.atol = 1e-3;
  }
  return tolerance;
}

CaseOptions CpuCaseOptions(bool fuse) {
  CaseOptions options;
  options.runner = [](const Graph& graph, const std::map<std::string, TensorData>& inputs) {
    return cpu_reference::RunGraph(graph, inputs);
  };
  options.is_supported_op = cpu_reference::IsSupportedOp;
  if (fuse) options.transform = [](Graph& graph) { return RunDefaultPasses(graph); };
  return options;
}

CaseOptions GpuCaseOptions(const ExecutorOptions& executor_options) {
  CaseOptions options;
  ExecutorOptions shared = executor_options;
  if (!shared.programs) shared.programs = std::make_shared<ProgramCache>();
  options.runner = [shared](const Graph& graph, const std::map<std::string, TensorData>& inputs)
      -> StatusOr<std::map<std::string, TensorData>> {
    ExecutorOptions case_options = shared;
    if (case_options.precision == Precision::kFp16) {
      GLPOOL_ASSIGN_OR_RETURN(case_options.fp32_tensors, CalibratedFp32Tensors(graph, inputs, case_options.programs));
    }
    GLPOOL_ASSIGN_OR_RETURN(std::unique_ptr<Executor> executor, Executor::Create(graph, case_options));
    return executor->Run(inputs);
  };
  // With the per-node fallback, an op the CPU reference runs is runnable too.
  if (executor_options.cpu_fallback) {
    options.is_supported_op = [](const std::string& op) { return GpuSupportsOp(op) || cpu_reference::IsSupportedOp(op); };
  } else {
    options.is_supported_op = GpuSupportsOp;
  }
  options.is_parameter_input = IsParameterInput;
  // The GPU always runs the passes: they mark the reshapes that cost nothing.
  options.transform = [](Graph& graph) { return RunDefaultPasses(graph); };
  const bool fp16 = executor_options.precision == Precision::kFp16;
  options.tolerance = [fp16](const std::string& dir) { return GpuTolerance(dir, fp16); };
  return options;
}

}  // namespace glpool
