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

#include <functional>
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
#include "glpool/options.h"
#include "glpool/report.h"

namespace glpool {

// ObjectKind, Precision and their names/parsers come from glpool/options.h;
// PoolObject, PlacedTensor, MemoryReport and TaskInfo from glpool/report.h.

struct ExecutorOptions {
  ObjectKind objects = ObjectKind::kBuffers;
  Precision precision = Precision::kFp32;
  std::string strategy = "auto";
  double budget_seconds = 1.0;  // for the arena's exact search
  // The most bytes the pool of intermediates may take; 0: no limit. A
  // strategy over it gives way to "auto"; over it with "auto" too, Create
  // fails with kOutOfMemory before making any GL object.
  uint64_t memory_budget_bytes = 0;
  // Shared across executors on one context to compile each variant once;
  // when null the executor keeps its own.
  std::shared_ptr<ProgramCache> programs;
  // fp16 only: float tensors kept in fp32 storage, usually those
  // FindHalfUnsafeTensors reports; empty stores every float tensor as half
  // but the logits of the graph's heads (precision_sensitive.h), which
  // fp16 always keeps in fp32.
  std::set<std::string> fp32_tensors;
  // The part of fp32_tensors fp16 calibration keeps for the outputs'
  // accuracy (fp16_calibration.h), counted apart in the memory report.
  std::set<std::string> fp32_accuracy_tensors;
  // Nodes the GPU refuses run on the CPU reference (cpu_fallback.h);
  // false (the default inside the backend) fails Create on them. Sessions
  // set it from SessionOptions::cpu_fallback.
  bool cpu_fallback = false;
  // Binding points one task may use for its tensors; 0: what the context
  // reports (binding_limits.h). Concat, Sum, Mean, Max and Min nodes wider
  // than that become trees of tasks. Tests set it low to act as a device
  // with GLES 3.1's minimum limits.
  uint32_t max_task_bindings = 0;
  // SessionOptions' memory options (glpool/options.h).
  MemoryMode memory_mode = MemoryMode::kPooled;
  bool winograd = true;  // SessionOptions::winograd
  bool inputs_in_pool = false;
  bool outputs_in_pool = false;
  std::set<std::string> keep;
  bool keep_all = false;
  std::vector<NamedPool> pools;
  CpuSpin cpu_spin = CpuSpin::kAuto;  // SessionOptions::cpu_spin
  // SessionOptions::progress.
  std::function<void(const RunProgress&)> progress;
};

// A float tensor is stored as half in fp16 mode when its calibrated max |x|
// is 0 or lies in [kHalfSafeMin, kHalfSafeMax]: below, its values sink into
// half's subnormals (spacing 6e-8) and lose their digits; above, they come
// near half's overflow at 65504.
inline constexpr float kHalfSafeMin = 1.0f / 256.0f;
inline constexpr float kHalfSafeMax = 16384.0f;

// The executor options of a calibration run (FindHalfUnsafeTensors, the
// probes of fp16_calibration.h): naive buffers, so every tensor keeps its
// values, in `precision`; the CPU fallback allowed, since calibration
// measures every tensor whatever runs it (whether the model may use the
// fallback is decided when its own executor is created).
ExecutorOptions CalibrationRunOptions(Precision precision, std::shared_ptr<ProgramCache> programs);

// fp16 calibration: one fp32 run of `graph` on `inputs` over naive buffers
// (so every tensor keeps its values), returning the float tensors whose
// max |x| is nonzero and outside [kHalfSafeMin, kHalfSafeMax]. Needs a
// current GLES 3.1 context; `programs` may be null. `fp32_outputs`, when
// given, receives the run's graph outputs (fp16_calibration.h compares
// fp16 runs with them).
StatusOr<std::set<std::string>> FindHalfUnsafeTensors(const Graph& graph,
                                                      const std::map<std::string, TensorData>& inputs,
                                                      std::shared_ptr<ProgramCache> programs,
                                                      std::map<std::string, TensorData>* fp32_outputs = nullptr);

// A graph input's or output's own GL object (never pooled), for callers
// that fill or read it on the GPU. `present` is false when the tensor has
// none: an input no task reads, or an output that is a constant or an alias
// of an input.
struct ExternalTensor {
  bool present = false;
  StorageKind storage = StorageKind::kBuffer;
  GLuint gl_name = 0;
  uint64_t bytes = 0;          // buffers
  uint64_t width = 0;          // textures: the texture's width (>= layout.w)
  bool half = false;
  Phwc4Layout layout;
};

// Graph inputs Run() does not upload and outputs it does not read back,
// because the caller moves them on the GPU itself.
struct GpuSideIo {
  std::set<std::string> inputs;
  std::set<std::string> outputs;
};

class Executor {
 public:
  struct State;  // executor_state.h: shared by the files that implement Executor
  ~Executor();
  friend StatusOr<std::set<std::string>> FindHalfUnsafeTensors(const Graph&, const std::map<std::string, TensorData>&,
                                                               std::shared_ptr<ProgramCache>,
                                                               std::map<std::string, TensorData>*);
  Executor(const Executor&) = delete;
  Executor& operator=(const Executor&) = delete;

  // Needs a current GLES 3.1 context for its whole life.
  static StatusOr<std::unique_ptr<Executor>> Create(Graph graph, const ExecutorOptions& options);

  // Inputs by graph input name (logical layout); returns every graph output.
  StatusOr<std::map<std::string, TensorData>> Run(const std::map<std::string, TensorData>& inputs);
  // Same, leaving `gpu` inputs unwritten (the caller filled their objects,
  // with a barrier) and `gpu` outputs unread (absent from the result).
  StatusOr<std::map<std::string, TensorData>> Run(const std::map<std::string, TensorData>& inputs,
                                                  const GpuSideIo& gpu);

  // A tensor's values after the last Run: constants, graph inputs and
  // outputs with their own objects, and kept intermediates. Any other
  // intermediate is kRemoved (its memory was reused), naming how to keep it.
  StatusOr<TensorData> ReadTensor(const std::string& name) const;
  // Whether `name`'s storage is in the pool (intermediates, and graph
  // inputs/outputs with inputs_in_pool/outputs_in_pool).
  bool Pooled(const std::string& name) const;

  const Graph& graph() const;
  ExternalTensor External(const std::string& name) const;
  // Zero-copy: tasks bind `buffer` (caller-owned, at least External().bytes)
  // instead of the tensor's own buffer object; 0 restores the own object.
  // Only for a present, buffer-stored graph input or output.
  Status BorrowBuffer(const std::string& name, GLuint buffer);
  const std::shared_ptr<ProgramCache>& programs() const;

  const MemoryReport& memory() const;
  const std::vector<PoolObject>& objects() const;
  const std::vector<PlacedTensor>& tensors() const;
  const std::vector<TaskInfo>& tasks() const;
  const PartitionReport& partition() const;
  // The executor's part of Session::startup(): tasks, plan, objects,
  // uploads, programs.
  const StartupReport& startup() const;
  // Milliseconds per task of the last Run when timing was requested, else
  // empty: GPU timer-query times once a timed run has shown the context's
  // timers see compute work (task_ms_from_gpu; tasks run on the CPU keep
  // wall time), otherwise wall time around each task with a glFinish after it.
  const std::vector<double>& task_ms() const;
  bool task_ms_from_gpu() const;
  // The same run's GPU time per task from timer queries (-1 for tasks run on
  // the CPU); empty where the context has no GL_EXT_disjoint_timer_query
  // with timestamps, its timestamps do not see compute work (no task a
  // microsecond apart), or the GPU reported a disjoint event (clock change).
  const std::vector<double>& task_gpu_ms() const;
  void set_time_tasks(bool on);

 private:
  explicit Executor(std::unique_ptr<State> state);
  std::unique_ptr<State> state_;
};

}  // namespace glpool
