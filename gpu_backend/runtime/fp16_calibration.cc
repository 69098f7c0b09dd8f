#include "gpu_backend/runtime/fp16_calibration.h"

#include <algorithm>
#include <chrono>
#include <cmath>

#include "gpu_backend/runtime/executor.h"

namespace glpool {
namespace {

double SecondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// The float tensors the first `count` nodes compute, and the graph's float
// inputs (stored before node 0 runs) when count > 0.
std::set<std::string> OutputsOfFirstNodes(const Graph& graph, size_t count) {
  std::set<std::string> names;
  if (count == 0) return names;
  auto add_float = [&](const std::string& name) {
    if (name.empty()) return;
    auto it = graph.tensors.find(name);
    if (it != graph.tensors.end() && !it->second.is_constant && it->second.dtype == DataType::kFloat32) {
      names.insert(name);
    }
  };
  for (const std::string& input : graph.inputs) add_float(input);
  for (size_t n = 0; n < count && n < graph.nodes.size(); ++n) {
    for (const std::string& output : graph.nodes[n].outputs) add_float(output);
  }
  return names;
}

}  // namespace

std::set<std::string> Fp16Calibration::Fp32Tensors() const {
  std::set<std::string> all = range_tensors;
  all.insert(accuracy_tensors.begin(), accuracy_tensors.end());
  return all;
}

double MaxRelativeOutputError(const std::map<std::string, TensorData>& reference,
                              const std::map<std::string, TensorData>& measured) {
  double worst = 0;
  for (const auto& [name, expected] : reference) {
    auto it = measured.find(name);
    if (it == measured.end() || expected.dtype != DataType::kFloat32 || it->second.dtype != DataType::kFloat32) {
      continue;
    }
    const std::vector<float> want = expected.ToFloats(), got = it->second.ToFloats();
    if (want.size() != got.size()) return INFINITY;
    double largest = 0, diff = 0;
    for (size_t i = 0; i < want.size(); ++i) {
      largest = std::max(largest, std::fabs(static_cast<double>(want[i])));
      const double d = std::fabs(static_cast<double>(got[i]) - want[i]);
      diff = std::isnan(d) ? INFINITY : std::max(diff, d);
    }
    worst = std::max(worst, largest > 0 ? diff / largest : diff);
  }
  return worst;
}

StatusOr<Fp16Calibration> CalibrateFp16(const Graph& graph, const std::map<std::string, TensorData>& inputs,
                                        const Fp16CalibrationOptions& options) {
  Fp16Calibration result;
  result.nodes = graph.nodes.size();
  std::map<std::string, TensorData> reference;
  GLPOOL_ASSIGN_OR_RETURN(result.range_tensors, FindHalfUnsafeTensors(graph, inputs, options.programs, &reference));
  if (options.tolerance <= 0) return result;

  // The outputs' error with the first `count` nodes' outputs in fp32.
  auto error_with_first = [&](size_t count) -> StatusOr<double> {
    ExecutorOptions probe = CalibrationRunOptions(Precision::kFp16, options.programs);
    probe.fp32_tensors = result.range_tensors;
    const std::set<std::string> first = OutputsOfFirstNodes(graph, count);
    probe.fp32_tensors.insert(first.begin(), first.end());
    GLPOOL_ASSIGN_OR_RETURN(std::unique_ptr<Executor> executor, Executor::Create(graph, probe));
    StatusOr<std::map<std::string, TensorData>> outputs = executor->Run(inputs);
    GLPOOL_TRY_CONTEXT(outputs.status(), "fp16 calibration: probe with the first " + std::to_string(count) +
                                             " nodes in fp32");
    ++result.probe_runs;
    return MaxRelativeOutputError(reference, *outputs);
  };

  GLPOOL_ASSIGN_OR_RETURN(result.half_error, error_with_first(0));
  result.error = result.half_error;
  if (result.half_error <= options.tolerance) return result;
  // The budget starts here: the fp32 run and the all-half probe have
  // compiled the programs, so what is left is run time, and a busy machine's
  // slow compiles do not cut the search short.
  const auto start = std::chrono::steady_clock::now();
  // Bisection: `fails` never meets the tolerance, `passes` does (every node
  // in fp32 is the reference run itself, error 0).
  size_t fails = 0, passes = result.nodes;
  double passes_error = 0;
  while (passes - fails > 1) {
    if (SecondsSince(start) > options.budget_seconds) {
      result.deadline_hit = true;
      break;
    }
    const size_t middle = fails + (passes - fails) / 2;
    GLPOOL_ASSIGN_OR_RETURN(const double error, error_with_first(middle));
    if (error <= options.tolerance) {
      passes = middle;
      passes_error = error;
    } else {
      fails = middle;
    }
  }
  result.fp32_nodes = passes;
  result.accuracy_tensors = OutputsOfFirstNodes(graph, passes);
  result.error = passes_error;
  return result;
}

StatusOr<std::set<std::string>> CalibratedFp32Tensors(const Graph& graph,
                                                      const std::map<std::string, TensorData>& inputs,
                                                      std::shared_ptr<ProgramCache> programs) {
  Fp16CalibrationOptions options;
  options.programs = std::move(programs);
  GLPOOL_ASSIGN_OR_RETURN(const Fp16Calibration calibration, CalibrateFp16(graph, inputs, options));
  return calibration.Fp32Tensors();
}

}  // namespace glpool
