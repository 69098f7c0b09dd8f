// SessionOptions: every choice a Session is created with, in one struct.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "glpool/export.h"
#include "glpool/status.h"
#include "glpool/tensor.h"

namespace glpool {

// The kind of GL object the pool is made of: one immutable 2D texture per
// shared object, one fixed-size SSBO per shared object, or a single SSBO
// (the arena) holding every intermediate at a planned offset.
enum class ObjectKind { kTextures, kBuffers, kArena };
GLPOOL_API const char* ObjectKindName(ObjectKind kind);  // "textures", "buffers", "arena"
GLPOOL_API StatusOr<ObjectKind> ParseObjectKind(const std::string& name);

// Storage precision of float tensors on the GPU (arithmetic is fp32 either
// way). Integer and bool tensors always stay fp32, where whole numbers up to
// 2^24 are exact.
enum class Precision { kFp32, kFp16 };
GLPOOL_API const char* PrecisionName(Precision precision);  // "fp32", "fp16"
GLPOOL_API StatusOr<Precision> ParsePrecision(const std::string& name);

// The planner strategies `kind` accepts, "auto" included (what `glpool plan`
// and the overlay list).
GLPOOL_API std::vector<std::string> StrategyNames(ObjectKind kind);

// Where the network runs. kCpuReference is glpool's plain C++ oracle (no GL
// context needed, no GPU bindings, no pool): for checking results and for
// machines without GLES 3.1.
enum class Backend { kGpu, kCpuReference };

// The order the GPU runs a network's nodes in. kGiven: the model's own
// (topological) order. kMemory: a topological order searched for a lower
// peak of live pooled bytes (a bounded dynamic programme over the sets of
// nodes already run, within SessionOptions::order_budget_seconds per input
// shape), kept only when its peak is strictly lower, so the pool's floor
// itself drops; results are the same, only the order differs.
enum class NodeOrder { kGiven, kMemory };
GLPOOL_API const char* NodeOrderName(NodeOrder order);  // "given", "memory"
GLPOOL_API StatusOr<NodeOrder> ParseNodeOrder(const std::string& name);

struct SessionOptions {
  Backend backend = Backend::kGpu;
  ObjectKind objects = ObjectKind::kBuffers;
  Precision precision = Precision::kFp32;
  // A planner strategy for `objects` (see `glpool plan`); "auto" picks the
  // best verified plan. Unknown names fail Session::Create (kInvalidArgument).
  std::string strategy = "auto";
  // Seconds the arena's exact offset search may spend per input shape.
  double arena_budget_seconds = 1.0;
  // Node order on the GPU (kMemory: searched once per input shape, within
  // order_budget_seconds; Session::memory() reports the pool it gives).
  NodeOrder node_order = NodeOrder::kGiven;
  double order_budget_seconds = 1.0;
  // The most bytes the GPU pool of intermediates may take (graph inputs,
  // outputs and weights are not pooled and not counted); 0: no limit. When
  // `strategy`'s plan is larger, "auto" (the smallest verified plan) is used
  // if it fits, and memory().chosen says so; when no plan fits, creating
  // the session (or planning a new input shape) fails with kOutOfMemory
  // naming the bytes needed, the budget and the lower bound, before any GL
  // object is made.
  uint64_t memory_budget_bytes = 0;
  // Shapes for inputs with symbolic dims (Model::inputs() names them); an
  // input whose dims are all fixed may be left out. Reshape() changes them.
  std::map<std::string, Shape> input_shapes;
  // fp16 only: one fp32 run on these inputs finds the float tensors whose
  // range half cannot hold (they stay fp32 at every shape). Empty: every
  // float tensor is stored as half.
  std::map<std::string, TensorData> calibration_inputs;
  // Sessions on one GL context share compiled programs in memory, so a
  // second Session with other options compiles only what is new.
  // A directory glpool may write to: linked program binaries are stored
  // there (keyed by a hash of the kernel source and the GL vendor, renderer
  // and version) and loaded by later sessions, in this process or another,
  // instead of compiling. Empty: no disk cache. Unreadable, corrupt or
  // mismatched entries are ignored and the program is compiled again.
  std::string program_cache_dir;
  // Time each task of every Run (a glFinish after each dispatch, so runs get
  // slower); Session::task_ms() then holds the last run's times.
  bool time_tasks = false;
  // A node whose op has no GPU kernel (or whose kernel refuses it) runs on
  // the CPU reference inside the GPU run, its tensors moved across
  // (Session::partition() reports how many). False: such a model fails
  // Session::Create with kUnsupported naming the node and op.
  bool cpu_fallback = true;
  // Further memory options (graph inputs in the pool, kept tensors, named
  // pools) become fields here when the runtime implements them; none is
  // declared before it works.
};

}  // namespace glpool
