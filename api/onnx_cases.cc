#include "glpool/onnx_cases.h"

#include "api/case_backends.h"
#include "api/current_context.h"
#include "api/program_sharing.h"

namespace glpool {

StatusOr<std::vector<std::string>> ExpandOnnxCaseDirs(const std::vector<std::string>& dirs) {
  return ExpandCaseDirs(dirs);
}

StatusOr<OnnxCaseResult> RunOnnxCase(const std::string& dir, const OnnxCaseOptions& options) {
  CaseOptions case_options;
  if (options.session.backend == Backend::kCpuReference) {
    case_options = CpuCaseOptions(options.fuse);
  } else {
    GLPOOL_RETURN_IF_ERROR(LoadGlFromCurrentContext());
    ExecutorOptions executor_options;
    executor_options.objects = options.session.objects;
    executor_options.precision = options.session.precision;
    executor_options.strategy = options.session.strategy;
    executor_options.budget_seconds = options.session.arena_budget_seconds;
    executor_options.programs = ProgramsOfCurrentContext();
    // The cases measure the GPU's own kernels: a node the GPU refuses makes
    // its case unsupported rather than passing on the CPU reference.
    executor_options.cpu_fallback = false;
    case_options = GpuCaseOptions(executor_options);
  }
  if (options.tolerance == "onnx") {
    case_options.tolerance = [](const std::string&) { return OnnxBackendTolerance(); };
  } else if (options.tolerance == "model") {
    case_options.tolerance = [](const std::string&) { return ModelTolerance(); };
  } else if (options.tolerance != "auto") {
    return InvalidArgumentError("unknown tolerance '" + options.tolerance + "' (expected auto, onnx or model)");
  }
  const CaseResult result = RunOnnxTestCase(dir, case_options);
  OnnxCaseResult public_result;
  public_result.dir = result.dir;
  public_result.outcome = result.outcome == CaseOutcome::kPass   ? OnnxCaseOutcome::kPass
                          : result.outcome == CaseOutcome::kFail ? OnnxCaseOutcome::kFail
                                                                  : OnnxCaseOutcome::kUnsupported;
  public_result.summary = result.Summary();
  return public_result;
}

}  // namespace glpool
