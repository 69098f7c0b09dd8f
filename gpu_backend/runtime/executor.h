// Executor: runs a graph on the GPU with its intermediates in a planned pool.
//
// Create() does all the one-time work: tasks and lifetimes from compile
// (gpu_backend/compile), a kernel plan per task, usage records, the pool
// plan (verified), one GL object per shared object (or
// one arena buffer), programs compiled once per kernel variant, weights and
// constants uploaded. Run() then only binds and dispatches: per task the
// objects of its tensors, with single-shader exclusivity checked (an object
// bound twice in one dispatch is an internal error), and a memory barrier
// only where a task touches an object an earlier unsynchronised task wrote
// or reads. Graph inputs, outputs and constants live in external objects,
// never pooled.
#pragma once

#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "common/status.h"
#include "gpu_backend/compile/usage_records.h"
#include "gpu_backend/graph/graph.h"
#include "gpu_backend/graph/phwc4_layout.h"
#include "gpu_backend/runtime/program_cache.h"
#include "gpu_backend/runtime/shader_assembly.h"

namespace glpool {

enum class ObjectKind { kTextures, kBuffers, kArena };

const char* ObjectKindName(ObjectKind kind);  // "textures", "buffers", "arena"
StatusOr<ObjectKind> ParseObjectKind(const std::string& name);
// Precision (fp32/fp16) and PrecisionName come from compile/usage_records.h.
StatusOr<Precision> ParsePrecision(const std::string& name);

struct ExecutorOptions {
  ObjectKind objects = ObjectKind::kBuffers;
  Precision precision = Precision::kFp32;
  std::string strategy = "auto";
  double budget_seconds = 1.0;  // for the arena's exact search
  // Shared across executors on one context to compile each variant once;
  // when null the executor keeps its own.
  std::shared_ptr<ProgramCache> programs;
  // fp16 only: float tensors kept in fp32 storage, usually those
  // FindHalfUnsafeTensors reports; empty stores every float tensor as half.
  std::set<std::string> fp32_tensors;
};

// A float tensor is stored as half in fp16 mode when its calibrated max |x|
// is 0 or lies in [kHalfSafeMin, kHalfSafeMax]: below, its values sink into
// half's subnormals (spacing 6e-8) and lose their digits; above, they come
// near half's overflow at 65504.
inline constexpr float kHalfSafeMin = 1.0f / 256.0f;
inline constexpr float kHalfSafeMax = 16384.0f;

// fp16 calibration: one fp32 run of `graph` on `inputs` over naive buffers
// (so every tensor keeps its values), returning the float tensors whose
// max |x| is nonzero and outside [kHalfSafeMin, kHalfSafeMax]. Needs a
// current GLES 3.1 context; `programs` may be null.
StatusOr<std::set<std::string>> FindHalfUnsafeTensors(const Graph& graph,
                                                      const std::map<std::string, TensorData>& inputs,
                                                      std::shared_ptr<ProgramCache> programs);

// One shared object of the pool (or the single arena).
struct PoolObject {
  StorageKind storage = StorageKind::kBuffer;
  bool half = false;               // textures: RGBA16F (else RGBA32F)
  uint64_t bytes = 0;
  uint64_t width = 0, height = 0;  // textures
  std::vector<size_t> tensors;     // indices into Executor::tensors()
};

// One pooled (intermediate) tensor, its lifetime from compile, and where
// the plan put it.
struct PlacedTensor {
  std::string name;
  Phwc4Layout layout;
  uint64_t bytes = 0;              // its own footprint (at least one texel)
  bool half = false;               // stored as half precision
  int64_t first_task = 0, last_task = 0;
  size_t object = 0;
  uint64_t offset = 0;             // in the arena; 0 otherwise
  bool buffer_fallback = false;    // textures mode: too large for a texture
};

struct MemoryReport {
  std::string objects, precision, strategy, chosen;
  size_t tensors = 0;
  size_t pool_objects = 0;
  size_t buffer_fallbacks = 0;     // textures mode: tensors in the fallback buffer pool
  // fp16 mode: pooled tensors stored in fp32 anyway, because they hold
  // integers or bools (exact whole numbers need float32) or because
  // calibration found their range outside half's.
  size_t fp32_integer_tensors = 0;
  size_t fp32_range_tensors = 0;
  uint64_t naive_bytes = 0;        // one object per pooled tensor
  uint64_t pool_bytes = 0;         // what the plan asks for
  uint64_t lower_bound_bytes = 0;
  uint64_t gl_pool_bytes = 0;      // what the GL objects of the pool really hold
  uint64_t external_bytes = 0;     // inputs, outputs, constants, weights
};

struct TaskInfo {
  std::string node;
  std::string op_type;
  std::string shader;
  std::vector<std::string> tensors;  // inputs then outputs
};

class Executor {
 public:
  ~Executor();
  friend StatusOr<std::set<std::string>> FindHalfUnsafeTensors(const Graph&, const std::map<std::string, TensorData>&,
                                                               std::shared_ptr<ProgramCache>);
  Executor(const Executor&) = delete;
  Executor& operator=(const Executor&) = delete;

  // Needs a current GLES 3.1 context for its whole life.
  static StatusOr<std::unique_ptr<Executor>> Create(Graph graph, const ExecutorOptions& options);

  // Inputs by graph input name (logical layout); returns every graph output.
  StatusOr<std::map<std::string, TensorData>> Run(const std::map<std::string, TensorData>& inputs);

  const MemoryReport& memory() const;
  const std::vector<PoolObject>& objects() const;
  const std::vector<PlacedTensor>& tensors() const;
  const std::vector<TaskInfo>& tasks() const;
  // Milliseconds per task of the last Run (CPU-side around each dispatch,
  // with a glFinish after it) when timing was requested, else empty.
  const std::vector<double>& task_ms() const;
  void set_time_tasks(bool on);

 private:
  struct State;
  explicit Executor(std::unique_ptr<State> state);
  std::unique_ptr<State> state_;
};

}  // namespace glpool
