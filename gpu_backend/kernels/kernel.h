// Kernel descriptors: for one graph node, everything the runtime needs to
// compile its shader (once per variant) and dispatch its task.
//
// A kernel is shaders/<op>.comp + gpu_backend/kernels/<op>.cc +
// tests/kernels/<op>_test.cc. The descriptor never touches GL: it reads the
// node and the graph (shapes, attributes, constant data) and returns a
// KernelPlan. The runtime binds the plan's tensors to pooled objects,
// uploads its weights once, and dispatches `groups` work groups.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "common/status.h"
#include "gpu_backend/graph/fused_activation.h"
#include "gpu_backend/graph/graph.h"

namespace glpool {

// Constant data a kernel reads as `NAME_data[i]` (vec4 elements): weights
// laid out for vec4 loads, biases, constant operands. `values.size()` is a
// multiple of 4 (pad with zeros).
struct KernelWeights {
  std::string name;           // as on the shader's glpool-weights line
  std::vector<float> values;
};

struct KernelPlan {
  std::string shader;                                       // shaders/<shader>.comp
  std::vector<std::pair<std::string, std::string>> defines;  // compile-time parameters
  std::vector<std::string> inputs;   // tensor names bound as in0, in1, ...; constants are uploaded once
  std::vector<std::string> outputs;  // tensor names bound as out0, ...
  std::vector<KernelWeights> weights;  // in the shader's glpool-weights order
  std::array<uint32_t, 3> local_size{8, 8, 1};  // reaches the shader as LOCAL_X/Y/Z
  std::array<uint32_t, 3> groups{1, 1, 1};      // work groups to dispatch
};

// What a descriptor may ask of the device when it picks work-group sizes.
struct KernelLimits {
  uint32_t max_invocations = 128;   // GLES 3.1 guarantees at least 128
  uint32_t max_shared_memory = 16384;
  // Work groups a dispatch should span to keep the device busy: llvmpipe
  // runs each group whole on one of its threads (executor.cc sets it).
  uint32_t min_groups = 1;
};

// Errors say what is wrong with the node, not which node it is: the executor
// prefixes "node NAME (OP): " to every build failure, so each message names
// the node exactly once.
using KernelBuilder = StatusOr<KernelPlan> (*)(const Graph& graph, const Node& node, const KernelLimits& limits);

struct KernelEntry {
  const char* op_type;  // ONNX op name
  KernelBuilder build;
};

// The one explicit list of GPU kernels (registry.cc).
const std::vector<KernelEntry>& KernelRegistry();
const KernelEntry* FindKernel(const std::string& op_type);

// Helpers shared by descriptors.
uint32_t DivideRoundUp(uint64_t value, uint32_t divisor);
// Groups covering an output's PHWC4 texels (W, N*H, slices) with `local`.
std::array<uint32_t, 3> GroupsOverOutput(const Graph& graph, const std::string& output, std::array<uint32_t, 3> local);
// The tensor, or an InvalidModel error naming it.
StatusOr<const Tensor*> RequireTensor(const Graph& graph, const std::string& name);
// Defines FUSED_ACTIVATION (0 none, 1 Relu, 2 Clip, 3 Sigmoid, 4 Tanh,
// 5 HardSigmoid, 6 HardSwish, 7 LeakyRelu, 8 Elu) and ACT_P0/ACT_P1 from the
// node's fused activation; shaders apply it with shaders' `activate(v)`.
Status AddFusedActivationDefines(const Node& node, KernelPlan& plan);
// The same numbering for any activation (none: no defines): `code_define`
// gets its code, `param_prefix` + "0" and "1" its params (a second
// activation in one shader, applied with glpool_activation).
Status AddActivationDefines(const std::optional<FusedActivation>& activation, const std::string& code_define,
                            const std::string& param_prefix, KernelPlan& plan);

}  // namespace glpool
