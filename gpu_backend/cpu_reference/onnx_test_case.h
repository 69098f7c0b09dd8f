// Runs ONNX backend-test cases against any backend: DIR/model.onnx plus
// DIR/test_data_set_*/input_*.pb and output_*.pb (serialized TensorProtos).
// `glpool test-onnx` and the conformance tests use it with the CPU
// reference today and the GPU backend later, so it knows nothing about
// either: a backend is a GraphRunner.
//
// A case imports the model with static shapes. When that fails and the
// model has integer or bool inputs (Reshape's shape, Slice's starts...), it
// imports again with those inputs bound as constants from the data set,
// since glpool only runs graphs whose shapes are known before they run;
// CaseResult says when that happened. A backend may also name parameter
// slots (CaseOptions::is_parameter_input): inputs read only there are bound
// up front.
#pragma once

#include <functional>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "common/status.h"
#include "gpu_backend/graph/graph.h"

namespace glpool {

// How far an output may be from the reference.
struct Tolerance {
  enum class Kind {
    kElementwise,    // |out - ref| <= atol + rtol * |ref| per element (ONNX's backend tests)
    kRelativeToMax,  // max |out - ref| <= relative * max |ref| (whole networks)
  };
  Kind kind = Kind::kElementwise;
  double rtol = 1e-3;
  double atol = 1e-7;
  double relative = 1e-4;
};

Tolerance OnnxBackendTolerance();  // rtol 1e-3, atol 1e-7
Tolerance ModelTolerance();        // 1e-4 x max |reference|
// ONNX's own cases are folders named test_*; anything else is a network.
Tolerance ToleranceForCaseDir(const std::string& dir);

using GraphRunner = std::function<StatusOr<std::map<std::string, TensorData>>(
    const Graph&, const std::map<std::string, TensorData>&)>;

struct CaseOptions {
  GraphRunner runner;
  // Names an op the backend cannot run, so the case is "unsupported" with
  // that reason before import; may be empty.
  std::function<bool(const std::string& op_type)> is_supported_op;
  // Applied to the imported graph before it runs (e.g. the fusion passes);
  // may be empty.
  std::function<Status(Graph&)> transform;
  // Per-case tolerance; ToleranceForCaseDir when empty.
  std::function<Tolerance(const std::string& dir)> tolerance;
  // Slots whose value the backend needs before it runs (a kernel's axes,
  // scales, pads...); may be empty. A runtime input read only at such
  // slots is bound as a constant from each data set before import.
  std::function<bool(const std::string& op_type, size_t input_index)> is_parameter_input;
};

enum class CaseOutcome { kPass, kFail, kUnsupported };

struct CaseResult {
  std::string dir;
  CaseOutcome outcome = CaseOutcome::kFail;
  std::string reason;            // why it failed or is unsupported
  double max_abs_error = 0.0;    // over every output of every data set
  double tolerance = 0.0;        // the bound at the worst element
  bool inputs_bound = false;     // integer inputs were bound as constants
  // Nodes left in the graph the backend ran; 0 when import folded the whole
  // case into constants (then the pass checks import, not the backend).
  int graph_nodes = 0;
  // From the model file, for pass-rate bookkeeping: default-domain op types
  // of the main graph, whether every graph input/output is float32 or an
  // int32/int64/bool operand (with at least one float32), and the largest
  // input/output rank.
  std::set<std::string> model_ops;
  bool float_case = false;
  int max_rank = 0;

  // "pass", "pass (folded at import)", "fail (max abs error X, tolerance
  // Y)", "fail (reason)" or "unsupported (reason)".
  std::string Summary() const;
};

// Each DIR holding model.onnx is a case; any other DIR stands for the
// sorted case folders directly inside it. A DIR with neither is an error.
StatusOr<std::vector<std::string>> ExpandCaseDirs(const std::vector<std::string>& dirs);

// Runs one case. Never fails as a call: problems are the result's outcome.
CaseResult RunOnnxTestCase(const std::string& dir, const CaseOptions& options);

struct CaseTally {
  int passed = 0;
  int failed = 0;
  int unsupported = 0;
  void Add(const CaseResult& result);
  // "312 passed, 4 failed, 120 unsupported"
  std::string Line() const;
};

}  // namespace glpool
