#include "glpool/onnx_cases.h"

#include <cstdlib>

#include "api/case_backends.h"
#include "api/current_context.h"
#include "api/program_sharing.h"

namespace glpool {

StatusOr<std::vector<std::string>> ExpandOnnxCaseDirs(const std::vector<std::string>& dirs) {
  return ExpandCaseDirs(dirs);
}

namespace {

// A tolerance given as a number: relative to the reference's largest value.
bool ParseRelativeTolerance(const std::string& text, double* relative) {
  if (text.empty()) return false;
  char* end = nullptr;
  const double value = std::strtod(text.c_str(), &end);
  if (end != text.c_str() + text.size() || !(value > 0.0 && value <= 1.0)) return false;
  *relative = value;
  return true;
}

}  // namespace

Status CheckOnnxCaseTolerance(const std::string& tolerance) {
  double relative = 0;
  if (tolerance == "auto" || tolerance == "onnx" || tolerance == "model" ||
      ParseRelativeTolerance(tolerance, &relative)) {
    return Status::Ok();
  }
  return InvalidArgumentError("unknown tolerance '" + tolerance +
                              "' (expected auto, onnx, model or a number in (0, 1] relative to max |reference|)");
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
  GLPOOL_RETURN_IF_ERROR(CheckOnnxCaseTolerance(options.tolerance));
  double relative = 0;
  if (options.tolerance == "onnx") {
    case_options.tolerance = [](const std::string&) { return OnnxBackendTolerance(); };
  } else if (options.tolerance == "model") {
    case_options.tolerance = [](const std::string&) { return ModelTolerance(); };
  } else if (ParseRelativeTolerance(options.tolerance, &relative)) {
    case_options.tolerance = [relative](const std::string&) {
      Tolerance t = ModelTolerance();
      t.relative = relative;
      return t;
    };
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
