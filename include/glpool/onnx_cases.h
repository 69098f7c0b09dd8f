// ONNX backend-test case folders (DIR/model.onnx plus
// DIR/test_data_set_*/input_*.pb and output_*.pb) run against the GPU or the
// CPU reference and compared with the stored outputs: what
// `glpool test-onnx` prints and the conformance tests assert.
#pragma once

#include <string>
#include <vector>

#include "glpool/export.h"
#include "glpool/options.h"
#include "glpool/status.h"

namespace glpool {

struct OnnxCaseOptions {
  // backend, objects, precision and strategy; the rest is ignored. The GPU
  // backend needs a current GLES 3.1 context, always runs the default graph
  // passes and, in fp16, calibrates each case on its own inputs; it never
  // uses the CPU fallback (a node without a GPU kernel: unsupported).
  SessionOptions session;
  // CPU reference only: run the default graph passes first.
  bool fuse = false;
  // "auto" (test_* folders: ONNX's rtol 1e-3 / atol 1e-7; other folders:
  // 1e-4 x max |reference|, on the GPU 1e-3, fp16 3e-2), "onnx", "model",
  // or a number R in (0, 1]: max |out - ref| <= R x max |reference| (e.g.
  // 3e-2 for float16 models against a float16 runtime).
  std::string tolerance = "auto";
};

// Ok when `tolerance` is one OnnxCaseOptions::tolerance accepts; otherwise
// an InvalidArgument error saying what is expected.
GLPOOL_API Status CheckOnnxCaseTolerance(const std::string& tolerance);

enum class OnnxCaseOutcome { kPass, kFail, kUnsupported };

struct OnnxCaseResult {
  std::string dir;
  OnnxCaseOutcome outcome = OnnxCaseOutcome::kFail;
  // "pass", "pass (folded at import)", "fail (max abs error X, tolerance Y)",
  // "fail (reason)" or "unsupported (reason)".
  std::string summary;
};

// Each DIR holding model.onnx is a case; any other DIR stands for the sorted
// case folders directly inside it. A DIR with neither is kNotFound.
GLPOOL_API StatusOr<std::vector<std::string>> ExpandOnnxCaseDirs(const std::vector<std::string>& dirs);

// Runs one case. Fails as a call only for bad options (an unknown tolerance
// name, no context for the GPU); everything about the case is its outcome.
GLPOOL_API StatusOr<OnnxCaseResult> RunOnnxCase(const std::string& dir, const OnnxCaseOptions& options);

}  // namespace glpool
