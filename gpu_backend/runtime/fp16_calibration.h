// fp16 calibration: which float tensors stay in fp32 storage so that a
// model's fp16 outputs keep their meaning.
//
// Two reasons keep a tensor fp32:
// - range: its calibrated max |x| lies outside what half holds well
//   (FindHalfUnsafeTensors, executor.h);
// - accuracy: half keeps 11 significant bits, so every stored activation is
//   off by up to 2^-12 of itself, and a deep network compounds that. In
//   MediaPipe's selfie segmentation every intermediate stays within 0.3% of
//   fp32, yet the mask its last transposed conv + sigmoid makes errs by 3.8%
//   at the person's outline. Calibration measures the outputs' error with
//   half storage against an fp32 run on the same inputs and, while it is
//   above the tolerance, keeps the outputs of the network's first T nodes in
//   fp32, T found by bisection. The first nodes go first because an error
//   made early reaches the outputs through every later layer and every skip
//   connection (selfie: fp32 in the first half of the nodes leaves 1.6%,
//   in the second half 2.7%).
//
// The search is monotone in T by construction of its end points: T = 0 is
// the all-half run, and T = every node is the fp32 run itself (error 0),
// which is taken without a probe when nothing smaller passes or the
// deadline comes first.
#pragma once

#include <map>
#include <memory>
#include <set>
#include <string>

#include "common/status.h"
#include "glpool/options.h"
#include "gpu_backend/graph/graph.h"
#include "gpu_backend/runtime/program_cache.h"

namespace glpool {

struct Fp16CalibrationOptions {
  // Largest accepted error of any float graph output: max |fp16 - fp32| /
  // max |fp32| (the absolute error where the fp32 output is all zeros).
  // <= 0: no accuracy search (range only).
  double tolerance = kDefaultFp16Tolerance;
  // Seconds of bisection probes at most (counted after the fp32 run and the
  // all-half probe, which compile the programs); when they run out the
  // search keeps the smallest T known to pass (or every node).
  double budget_seconds = 60.0;
  std::shared_ptr<ProgramCache> programs;
};

struct Fp16Calibration {
  std::set<std::string> range_tensors;     // FindHalfUnsafeTensors
  std::set<std::string> accuracy_tensors;  // outputs of the first fp32_nodes nodes (and the graph inputs)
  size_t fp32_nodes = 0;                   // T: nodes whose outputs stay fp32 for accuracy
  size_t nodes = 0;
  double half_error = 0;  // the outputs' error with only the range tensors in fp32
  double error = 0;       // with the chosen tensors in fp32 (0 when every node is)
  size_t probe_runs = 0;  // fp16 runs made by the search
  bool deadline_hit = false;

  std::set<std::string> Fp32Tensors() const;
};

// One fp32 run on `inputs` (naive buffers), then fp16 probe runs as above.
// Needs a current GLES 3.1 context.
StatusOr<Fp16Calibration> CalibrateFp16(const Graph& graph, const std::map<std::string, TensorData>& inputs,
                                        const Fp16CalibrationOptions& options);

// CalibrateFp16 with the default tolerance and budget: the tensors to keep
// in fp32 (ExecutorOptions::fp32_tensors), as a Session calibrates.
StatusOr<std::set<std::string>> CalibratedFp32Tensors(const Graph& graph,
                                                      const std::map<std::string, TensorData>& inputs,
                                                      std::shared_ptr<ProgramCache> programs);

// The error measure above over the float outputs both runs hold.
double MaxRelativeOutputError(const std::map<std::string, TensorData>& reference,
                              const std::map<std::string, TensorData>& measured);

}  // namespace glpool
