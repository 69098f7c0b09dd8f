// Executor::State: what one executor holds, shared by the files that
// implement it (executor.cc: tasks, programs, Run; executor_pool.cc: the
// plan and its GL objects; executor_transfers.cc: moving tensors between
// CPU and GPU; executor_dynamic.cc: the dynamic memory mode and kept
// tensors). Private to the runtime.
#pragma once

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "gpu_backend/compile/compile.h"
#include "gpu_backend/gl/gl_buffer.h"
#include "gpu_backend/gl/gl_buffer_texture.h"
#include "gpu_backend/gl/gl_info.h"
#include "gpu_backend/gl/gl_shader.h"
#include "gpu_backend/gl/gl_sync.h"
#include "gpu_backend/gl/gl_texture.h"
#include "gpu_backend/gl/gl_timer_queries.h"
#include "gpu_backend/gl/texture_transfer.h"
#include "gpu_backend/kernels/kernel.h"
#include "gpu_backend/runtime/executor.h"
#include "gpu_backend/runtime/tensor_spans.h"

namespace glpool {

// Where a kernel's weights live (shader_assembly.h WeightBinding): a
// uniform block when they fit one, else a texture buffer where the context
// has them, else a 2D texture, else (beyond a texture's extent) a storage
// buffer.
enum class WeightHome { kUniformBlock, kTextureBuffer, kTexture, kStorageBuffer };

struct WeightObject {
  WeightHome home = WeightHome::kStorageBuffer;
  // Into State::buffer_textures for kTextureBuffer, State::textures for
  // kTexture, else State::buffers.
  size_t index = 0;
  uint32_t vec4s = 0;
};

struct TaskRuntime {
  KernelPlan plan;
  std::vector<std::string> roots;       // inputs then outputs, alias-resolved
  std::vector<WeightObject> weights;    // one per plan.weights
  const gl::GlProgram* program = nullptr;
  const Node* cpu_node = nullptr;       // set when the CPU reference runs the node
};

inline uint64_t TexelBytes(bool half) { return half ? 8 : 16; }

inline double MsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

inline gl::TextureFormat TextureFormatFor(bool half) {
  return half ? gl::TextureFormat::kRgba16F : gl::TextureFormat::kRgba32F;
}

// GL buffers and textures need a nonzero size; a zero-size tensor (a split
// of width 0, an empty reshape) still gets one texel so it can be bound.
inline uint64_t FootprintBytes(const Phwc4Layout& layout, bool half) {
  return std::max<uint64_t>(static_cast<uint64_t>(layout.texels()), 1) * TexelBytes(half);
}

// MemoryMode::kDynamic: each pooled tensor's object is made before its first
// task and released after its last, every run. A released object's bytes
// stay counted as live until a fence after its last task has signalled.
struct DynamicObjects {
  std::vector<std::vector<size_t>> first_at, last_at;  // per task: pooled tensor indices
  struct Release {
    gl::GlFence fence;            // after the tensors' last task
    std::vector<size_t> tensors;  // indices into State::pooled
  };
  std::vector<Release> releasing;
  std::vector<bool> made;  // per pooled tensor: its object exists now
  uint64_t live_bytes = 0;
};

struct Executor::State {
  Graph graph;
  ExecutorOptions options;
  gl::GlInfo info;
  gl::UniformWeightLimits uniform_weights;  // weights that fit go in uniform blocks...
  bool weights_in_uniform_blocks = true;    // ...on GPUs, texture buffers first on llvmpipe
  // Larger weights go in textures (WeightHome); GLPOOL_WEIGHTS_IN_BUFFERS=1
  // keeps them in storage buffers and GLPOOL_WEIGHTS_IN_2D_TEXTURES=1 in 2D
  // textures rather than texture buffers, to compare them on a device.
  bool weights_in_2d_textures = false;
  std::string texture_buffer_directive;  // the shaders' #extension line for samplerBuffer
  std::vector<gl::GlBufferTexture> buffer_textures;
  // keeps them in storage buffers, to compare the two on a device.
  bool weights_in_textures = true;
  CompiledGraph compiled;
  std::vector<TaskRuntime> tasks;
  std::vector<TaskInfo> task_infos;
  std::vector<gl::GlBuffer> buffers;
  std::vector<gl::GlTexture> textures;
  // Texture-buffer views of pooled buffer tensors that tasks read, by root
  // (MakeInputViews); declared after `buffers`, so destroyed before them.
  // GLPOOL_BUFFER_READS_AS_SSBO=1 (buffer_reads_as_ssbo) makes none: every
  // read is a storage load.
  std::map<std::string, gl::GlBufferTexture> input_views;
  // Views of callers' buffers that replace external ones (BorrowBuffer),
  // by root: the buffer and the view of it.
  std::map<std::string, std::pair<GLuint, gl::GlBufferTexture>> borrowed_views;
  bool buffer_reads_as_ssbo = false;
  std::map<std::string, Location> locations;      // by root tensor name
  std::vector<PoolObject> pool;
  std::vector<PlacedTensor> pooled;
  std::shared_ptr<ProgramCache> programs;
  MemoryReport memory;
  PartitionReport partition;
  std::vector<double> task_ms;
  // GPU-side times of the same run (timestamp queries), -1 for tasks run on
  // the CPU; empty where there are none (Executor::task_gpu_ms).
  std::vector<double> task_gpu_ms;
  gl::GlTimerQueries task_queries;
  // Whether this context's timer queries see compute work; unknown until a
  // timed run has tried them (see Run).
  std::optional<bool> timers_see_compute;
  bool task_ms_from_gpu = false;  // the last run's task_ms are timer-query times
  bool time_tasks = false;
  std::set<std::string> logit_roots;  // fp16: heads' logits kept in fp32
  std::set<std::string> kept_roots;   // pooled roots readable after Run
  bool ran = false;                   // a Run has finished
  DynamicObjects dynamic;
  StartupReport startup;
  // The pools tensors are planned in: [0] the default (the options' object
  // kind, precision and strategy), then ExecutorOptions::pools in order.
  std::vector<NamedPool> pool_specs;
  std::map<std::string, size_t> pool_of;  // pooled root -> index into pool_specs

  std::string Root(const std::string& name) const {
    auto it = compiled.storage.find(name);
    return it == compiled.storage.end() ? name : it->second.root;
  }
  // The slice of its root's object where tensor `name` starts (a window of
  // an in-place Concat's output; else 0).
  int64_t SliceOffset(const std::string& name) const {
    auto it = compiled.storage.find(name);
    return it == compiled.storage.end() ? 0 : it->second.slice_offset;
  }
  bool fp16() const { return options.precision == Precision::kFp16; }
  bool is_dynamic() const { return options.memory_mode == MemoryMode::kDynamic; }
  const Tensor& TensorNamed(const std::string& name) const { return *graph.FindTensor(name); }
  Phwc4Layout LayoutOfTensor(const std::string& name) const { return LayoutOf(TensorNamed(name).shape); }
  // Whether tensor `root` is stored as half: fp16 mode, a float tensor, and
  // not kept in fp32 by calibration or as a head's logits.
  bool StoresHalf(const std::string& root) const {
    const DataType dtype = TensorNamed(root).dtype;
    auto pool = pool_of.find(root);
    const Precision precision = pool == pool_of.end() ? options.precision : pool_specs[pool->second].precision;
    return precision == Precision::kFp16 && !IsIntegerOrBool(dtype) && !options.fp32_tensors.count(root);
  }
  const NamedPool& SpecOf(const std::string& root) const {
    auto pool = pool_of.find(root);
    return pool_specs[pool == pool_of.end() ? 0 : pool->second];
  }

  bool FitsTexture(const Phwc4Layout& layout) const {
    return layout.texels() > 0 && static_cast<int64_t>(layout.w) <= info.max_texture_size &&
           layout.rows() * layout.slices() <= info.max_texture_size;
  }

  // The texture copy kernels through the shared ProgramCache.
  gl::ProgramSource Transfers() const {
    return [cache = programs](const std::string& name, const std::string& source) { return cache->Get(name, source); };
  }
  // executor.cc
  Status BuildTasks();
  void CountPartition(const TaskRuntime& task, const TaskInfo& info);
  Status MakeInputViews();
  Status CompilePrograms();
  StatusOr<std::vector<TensorBinding>> Bindings(const TaskRuntime& task, std::vector<WeightBinding>* weights) const;
  Status BindTask(const TaskRuntime& task) const;
  // One work group of every GPU task's program, so drivers that compile at
  // the first dispatch do it at session creation (StartupReport::warm_ms).
  Status WarmPrograms();
  // executor_pool.cc
  // The strategy the memory mode plans with: naive and reuse replace the
  // options' strategy; dynamic plans one object per tensor (naive) and
  // makes them during each run.
  std::string ModeStrategy(const NamedPool& spec) const;
  Status PlanPool();
  // Plans every pool with its own strategy, or every one with "auto".
  Status PlanPoolObjects(bool all_auto);
  Status CheckMemoryBudget();
  Status MakePoolObjects();
  Status CreateExternal(const std::string& root);
  // executor_transfers.cc
  // `as`: the tensor (the root or an alias of it) whose layout the values
  // have; empty means the root's own.
  Status WriteTensor(const std::string& root, const std::vector<float>& logical, const std::string& as = "");
  StatusOr<std::vector<float>> ReadTensor(const std::string& root, const std::string& as = "") const;
  Status UploadConstantsAndWeights();
  // One kernel's weights into the home WeightHome picks for them;
  // `uniform_blocks` and `texture_units` count what the task's weights use
  // so far, against the context's limits.
  StatusOr<WeightObject> UploadWeights(const std::vector<float>& values, uint32_t* uniform_blocks,
                                       uint32_t* texture_units);
  Status RunCpuTask(const TaskRuntime& task);
  // executor_dynamic.cc
  void PrepareDynamic();
  // Before a run: objects still held from the last one (kept tensors) go.
  Status BeginDynamicRun();
  // Objects whose tensors start at `task` are made; released objects whose
  // fences have passed are deleted.
  Status MakeDynamicObjects(size_t task);
  // Tensors whose last task is `task` (and are not kept) are released.
  Status ReleaseDynamicObjects(size_t task);
  // After the run: waits for every release and deletes its object (kept
  // tensors and pooled outputs stay to the next BeginDynamicRun).
  Status EndDynamicRun();
  Status DeleteReleased(bool wait);
  void DeleteDynamicObject(size_t tensor);
};

}  // namespace glpool
