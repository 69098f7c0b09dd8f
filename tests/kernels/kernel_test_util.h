// Kernel tests: one node, run on the GPU executor (every object kind and
// precision) and on the CPU reference, compared with a tolerance.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "gpu_backend/graph/graph.h"
#include "gpu_backend/kernels/kernel.h"
#include "glpool/gpu_info.h"
#include "gpu_backend/runtime/executor.h"

namespace glpool::testing {

struct KernelCase {
  Node node;                                   // inputs/outputs name tensors below
  std::map<std::string, TensorData> inputs;    // graph inputs (activations)
  std::map<std::string, TensorData> constants; // initializers (weights, bias...)
  std::map<std::string, Shape> outputs;        // output name -> expected shape
  std::map<std::string, DataType> output_dtypes;  // where not float32 (bool, integers...)
  int64_t opset = 13;                          // semantics of the node (Softmax, Resize, Clip...)
  // Run the default graph passes on the GPU's copy of the graph first (as
  // every Session does); the CPU reference still runs the node as it is.
  bool default_passes = false;
};

// Deterministic values in [lo, hi) for a shape.
TensorData RandomTensor(const Shape& shape, uint32_t seed, float lo = -1.0f, float hi = 1.0f);

// `values` as a `dtype` tensor: integers truncated and wrapped to the type,
// bools as value != 0, float16 rounded. For cases on integer, bool and
// float16/float64 tensors (keep integers within +-2048 where fp16 variants
// run: fp16 storage holds whole numbers exactly only that far).
TensorData TypedTensor(DataType dtype, const Shape& shape, const std::vector<double>& values);

// Deterministic float32 multiples of 1/denominator in [-limit, limit]: exact
// in fp16 (for small denominators and limits), so every precision sees the
// same values and exact results can be compared with tolerance 0; and equal
// often enough that tie rules (first or last index) are exercised.
TensorData ExactFractions(const Shape& shape, uint32_t seed, int denominator, int limit);

// The one-node graph of a case (what both executors run).
Graph GraphOf(const KernelCase& c);

// The value a plan gives a shader define ("" where it has none).
std::string PlanDefine(const KernelPlan& plan, const std::string& name);

// One output of a case, GPU against CPU reference. Each output is judged
// on its own: an index output (ArgMax, MaxPool's Indices) holds values in
// the hundreds, which must not widen the tolerance of a float output.
struct OutputComparison {
  std::string name;
  bool exact = false;  // integer or bool: any difference fails
  float max_abs_error = 0;
  float max_abs_reference = 0;
};

struct Comparison {
  bool ran = false;
  std::string error;  // why it did not run
  std::vector<OutputComparison> outputs;
};

// Runs the case on the GPU with `options` and on the CPU reference.
Comparison CompareWithReference(const KernelCase& c, const ExecutorOptions& options);

// Creates the GPU executor for the case without running it: Ok, or the
// error as users read it (the executor names the node in build errors).
Status CreateOnGpu(const KernelCase& c, const ExecutorOptions& options = ExecutorOptions{});

// The executor's tasks for the case (as built, not run), without passes.
StatusOr<std::vector<TaskInfo>> TasksOnGpu(const KernelCase& c, const ExecutorOptions& options);

// The limits of the context the kernel tests run on.
StatusOr<GlInfo> ContextInfo();

// All six object kind x precision combinations.
std::vector<ExecutorOptions> AllVariants();
std::string VariantName(const ExecutorOptions& options);

// EXPECTs that every variant runs and that each float output stays within
// `fp32_tolerance` (fp32) or `fp16_tolerance` (fp16) relative to its own
// max |reference| (absolute when that output's reference is all zeros);
// integer and bool outputs must match exactly.
void ExpectMatchesReference(const KernelCase& c, float fp32_tolerance = 1e-4f, float fp16_tolerance = 2e-2f);

// The same over chosen variants. Every variant costs a shader compile
// (~50 ms on llvmpipe), so sweeps over op parameters use SweepVariants():
// buffers/fp32 and textures/fp16 (the storage code is the preamble's, which
// the all-variant cases of each kernel cover).
std::vector<ExecutorOptions> SweepVariants();
void ExpectMatchesReference(const KernelCase& c, const std::vector<ExecutorOptions>& variants,
                            float fp32_tolerance = 1e-4f, float fp16_tolerance = 2e-2f);

}  // namespace glpool::testing
