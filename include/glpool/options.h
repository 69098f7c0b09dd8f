// SessionOptions: every choice a Session is created with, in one struct.
#pragma once

#include <functional>
#include <map>
#include <string>
#include <vector>

#include "glpool/export.h"
#include "glpool/report.h"
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

// fp16's default accepted output error (SessionOptions::fp16_tolerance):
// half of the accuracy glpool promises in fp16 (outputs within 3e-2 x
// max |fp32 output|), the other half left for inputs that are not the
// calibration inputs.
inline constexpr double kDefaultFp16Tolerance = 1.5e-2;

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

// How the GPU holds the pooled intermediates, after ailia SDK's memory
// modes (one GL object per intermediate in every mode but kPooled):
//   kPooled   the planned pool of `strategy` (the default): objects shared
//             by tensors whose lifetimes do not overlap, made once.
//   kNaive    one object per intermediate, made once: the most memory,
//             nothing to plan.
//   kReuse    tensors of equal size share an object when their lifetimes
//             allow it (the "equality" strategy), made once.
//   kDynamic  each intermediate's object is made (glBufferData /
//             glTexStorage2D) right before its first task and deleted right
//             after its last, on every Run: the fewest bytes live at once,
//             paid for with allocations on every run. A deleted object's
//             memory counts as live until a fence shows the GPU is done
//             with it. Buffers and textures only (the arena is one object).
enum class MemoryMode { kPooled, kNaive, kReuse, kDynamic };
GLPOOL_API const char* MemoryModeName(MemoryMode mode);  // "pooled", "naive", "reuse", "dynamic"
GLPOOL_API StatusOr<MemoryMode> ParseMemoryMode(const std::string& name);

// A named pool (after Glow's proposal): the intermediates it takes and how
// it is planned. Each pool is planned on its own, with its own object kind,
// precision and strategy, so no two pools ever share an object. A tensor
// goes to the first pool that matches it: by its name (exact, or a glob
// with * and ?), by the op type of the node that writes it ("Conv"), or by
// its dtype; an empty list matches nothing. Tensors no pool matches stay in
// the default pool (SessionOptions' objects, precision and strategy).
// Matching is on the pooled tensor, after graph passes (fused activations
// write under the fused node's op type).
struct NamedPool {
  std::string name;
  std::vector<std::string> tensors;   // names or globs
  std::vector<std::string> op_types;  // the writing node's op type
  std::vector<DataType> dtypes;
  ObjectKind objects = ObjectKind::kBuffers;
  Precision precision = Precision::kFp32;
  std::string strategy = "auto";
};

// Spinning while a Run is in flight (see SessionOptions::cpu_spin).
enum class CpuSpin { kAuto, kOn, kOff };
GLPOOL_API const char* CpuSpinName(CpuSpin spin);  // "auto", "on", "off"
GLPOOL_API StatusOr<CpuSpin> ParseCpuSpin(const std::string& name);

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
  // range half cannot hold; then fp16 runs on them measure the outputs'
  // error (max |fp16 - fp32| / max |fp32| over the float outputs) and, while
  // it is above fp16_tolerance, keep the outputs of the network's first
  // nodes in fp32 (bisection over how many; an error made early reaches the
  // outputs through every later layer). Those tensors stay fp32 at every
  // shape; memory() counts them. Empty: every float tensor is stored as
  // half but the logits of heads.
  std::map<std::string, TensorData> calibration_inputs;
  // The outputs' accepted error in fp16 (see calibration_inputs); <= 0:
  // range calibration only.
  double fp16_tolerance = kDefaultFp16Tolerance;
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
  // While a Run is in flight, keep every CPU busy with spinning threads of
  // the idle scheduling class (Linux SCHED_IDLE: they run only on a CPU
  // nothing else wants and give it up at once). A software renderer
  // (Mesa's llvmpipe) hands each dispatch to its worker threads and sleeps
  // until they finish; where waking an idle CPU costs more than a small
  // dispatch (some virtual machines), spinning makes small networks faster.
  // Off by default: on this project's 2-core VM it now made every network
  // slower with llvmpipe's two threads (medians 5-20%, README) and it burns
  // CPU time while runs are in flight. kAuto: on for llvmpipe, off for
  // GPUs. Between runs nothing spins.
  CpuSpin cpu_spin = CpuSpin::kOff;
  // A node whose op has no GPU kernel (or whose kernel refuses it) runs on
  // the CPU reference inside the GPU run, its tensors moved across
  // (Session::partition() reports how many). False: such a model fails
  // Session::Create with kUnsupported naming the node and op.
  bool cpu_fallback = true;
  // See MemoryMode. kNaive and kReuse replace `strategy`.
  MemoryMode memory_mode = MemoryMode::kPooled;
  // 3x3 stride-1 convolutions with at least 16 channels in, 32 out and
  // outputs at least 7 wide and high run as Winograd's F(4x4, 3x3) (a
  // quarter of the multiply-adds; three tasks: the input's tiles transformed, 36
  // matrix products, the outputs transformed back) in fp32 buffer pools
  // without named pools or a memory budget. The transformed tiles take
  // 2.25x the input and output they stand for, so the pool grows (resnet18
  // 4.8 -> 6.6 MB, squeezenet1_1 4.1 -> 5.2, u2netp 117 -> 220); false
  // keeps every convolution direct and the pool smallest.
  bool winograd = true;
  // Graph inputs planned with the intermediates: each lives in the pool from
  // its upload to its last reader, and its memory is then reused, so the
  // input's contents are consumed by a Run (Session::ReadTensor says
  // "removed" unless it is kept). Inputs bound to GL objects (BindInput) are
  // copied into the pool. Off: each input has its own object.
  bool inputs_in_pool = false;
  // Graph outputs produced before the last task planned with the
  // intermediates, their lifetime running to the end of the run (they are
  // read back after it). A pooled output cannot be bound zero-copy; it is
  // copied into the bound object.
  bool outputs_in_pool = false;
  // Intermediates kept after Run for Session::ReadTensor: their lifetime
  // runs to the end of the run, so nothing later reuses their memory.
  // Names are the imported graph's (graph passes fuse some tensors away;
  // Create names a missing one). keep_all keeps every intermediate.
  std::vector<std::string> keep;
  bool keep_all = false;
  // Named pools, matched in order (see NamedPool); memory().pools reports
  // each planning unit. Names must be unique and not "default".
  std::vector<NamedPool> pools;
  // Called during Run on the calling thread, at most about every 200 ms,
  // with the tasks the GPU has finished (GPU backend; each call first waits
  // for the GPU with glFinish, so leave it empty unless someone watches).
  std::function<void(const RunProgress&)> progress;
};

}  // namespace glpool
