// The executor's tasks (a kernel plan or a CPU fallback per node), their
// programs and bindings, creation and Run. The pool is in executor_pool.cc,
// transfers in executor_transfers.cc, the dynamic memory mode and kept
// tensors in executor_dynamic.cc.
#include "gpu_backend/runtime/executor.h"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <set>

#include "gpu_backend/compile/in_place_concat.h"
#include "gpu_backend/gl/gl_call.h"
#include "gpu_backend/gl/gl_counters.h"
#include "gpu_backend/graph/passes/passes.h"
#include "gpu_backend/graph/precision_sensitive.h"
#include "gpu_backend/runtime/cpu_spin.h"
#include "gpu_backend/kernels/kernel_check.h"
#include "gpu_backend/runtime/binding_limits.h"
#include "gpu_backend/runtime/cpu_fallback.h"
#include "gpu_backend/runtime/executor_state.h"
#include "gpu_backend/runtime/gpu_values.h"
#include "gpu_backend/runtime/named_pools.h"

namespace glpool {

using gl::GlBuffer;

namespace {

// A comparison switch from the environment (NAME=1), for measuring one
// storage choice against another on a device.
bool SwitchedOn(const char* name) {
  const char* value = std::getenv(name);
  return value != nullptr && std::string(value) == "1";
}

// The same for what is on by default (NAME=0 turns it off).
bool SwitchedOff(const char* name) {
  const char* value = std::getenv(name);
  return value != nullptr && std::string(value) == "0";
}

}  // namespace

Status Executor::State::BuildTasks() {
  GLPOOL_ASSIGN_OR_RETURN(info, gl::QueryGlInfo());
  GLPOOL_ASSIGN_OR_RETURN(uniform_weights, gl::QueryUniformWeightLimits());
  weights_in_textures = !SwitchedOn("GLPOOL_WEIGHTS_IN_BUFFERS");
  weights_in_2d_textures = SwitchedOn("GLPOOL_WEIGHTS_IN_2D_TEXTURES");
  // A GPU serves a uniform block read at one index across the work group
  // from its constant cache. llvmpipe gathers it lane by lane, eight scalar
  // loads per float, unless the index is a compile-time constant (which a
  // kernel's loop counters never are); a texture buffer's texelFetch loads
  // one whole texel per lane. Measured on llvmpipe, one thread, in-process
  // A/B: mobilenet_v2 40.8 -> 36.1 ms, mnasnet1_0 42.7 -> 38.8, PP-OCR cls
  // 5.4 -> 5.0, the same bits. GLPOOL_WEIGHTS_IN_UNIFORM_BLOCKS=1 or 0
  // forces the choice, to compare the two on a device.
  weights_in_uniform_blocks = !gl::IsLlvmpipe(info);
  if (const char* forced = std::getenv("GLPOOL_WEIGHTS_IN_UNIFORM_BLOCKS"); forced != nullptr) {
    weights_in_uniform_blocks = std::string(forced) == "1";
  }
  buffer_reads_as_ssbo = SwitchedOn("GLPOOL_BUFFER_READS_AS_SSBO");
  if (!gl::GlBufferTexture::Supported(&texture_buffer_directive)) texture_buffer_directive.clear();
  // Variadic nodes wider than this context binds become trees here, before
  // compile, so the partial results are tensors the planner places.
  GLPOOL_RETURN_IF_ERROR(CheckNamedPools(options.pools));
  pool_specs.clear();
  pool_specs.push_back({"default", {}, {}, {}, options.objects, options.precision, options.strategy});
  pool_specs.insert(pool_specs.end(), options.pools.begin(), options.pools.end());
  // The narrowest of the object kinds in use decides.
  size_t width = SIZE_MAX;
  for (const NamedPool& spec : pool_specs) {
    GLPOOL_ASSIGN_OR_RETURN(const size_t kind_width,
                            VariadicSplitWidth(info, spec.objects, options.max_task_bindings));
    width = std::min(width, kind_width);
  }
  GLPOOL_RETURN_IF_ERROR(SplitWideVariadics(graph, width).status());
  // 3x3 convs as Winograd's F(4x4, 3x3) where it pays (passes/winograd.cc,
  // SessionOptions::winograd), in fp32 buffers only: its transforms scale
  // values up to 100-fold, more than half precision keeps; not under a
  // memory budget, which its larger pool might break. GLPOOL_WINOGRAD=0
  // keeps the direct kernel, to compare in one process.
  if (options.winograd && options.objects == ObjectKind::kBuffers && options.precision == Precision::kFp32 &&
      options.pools.empty() && options.memory_budget_bytes == 0 && !SwitchedOff("GLPOOL_WINOGRAD")) {
    GLPOOL_RETURN_IF_ERROR(RewriteConvsAsWinograd(graph).status());
  }
  // Depthwise Convs computed inside the pointwise Conv that reads them
  // (passes/fuse_depthwise_pointwise.cc), in every storage and precision;
  // GLPOOL_FUSE_DEPTHWISE=0 keeps them apart, to compare in one process.
  if (!SwitchedOff("GLPOOL_FUSE_DEPTHWISE")) {
    const std::set<std::string> keep(options.keep.begin(), options.keep.end());
    GLPOOL_RETURN_IF_ERROR(FuseDepthwiseIntoPointwise(graph, keep).status());
  }
  CompileOptions compile_options;
  compile_options.inputs_in_pool = options.inputs_in_pool;
  compile_options.outputs_in_pool = options.outputs_in_pool;
  compile_options.keep = options.keep;
  compile_options.keep_all = options.keep_all;
  for (const std::string& name : options.keep) {
    if (graph.FindTensor(name) == nullptr) {
      return NotFoundError("keep: no tensor named '" + name +
                           "' in the graph as it runs (graph passes fuse some intermediates away, a Conv's output "
                           "followed by a Relu for one; Session::tensors() and `glpool run MODEL --list-tensors` "
                           "name the pooled ones)");
    }
  }
  KernelLimits limits;
  limits.max_invocations = static_cast<uint32_t>(info.max_work_group_invocations);
  limits.max_shared_memory = static_cast<uint32_t>(info.max_shared_memory_bytes);
  limits.min_groups = gl::MinGroupsPerDispatch(info);
  // Concats whose inputs' producers can write into them (the copies cost a
  // task each); GLPOOL_IN_PLACE_CONCAT=0 keeps every one a copy, to compare.
  if (!SwitchedOff("GLPOOL_IN_PLACE_CONCAT")) {
    MarkInPlaceConcats(graph, [&](const Node& node) { return BuildNodeKernel(graph, node, limits).ok(); });
  }
  GLPOOL_ASSIGN_OR_RETURN(compiled, CompileGraph(graph, compile_options));
  pool_of = AssignNamedPools(graph, compiled, options.pools);
  // Kept: every pooled root with keep_all, else what the caller asked for
  // and graph outputs in the pool (they live to the end of the run anyway,
  // and Run has just returned them).
  std::set<std::string> wanted_roots;
  for (const std::string& name : options.keep) wanted_roots.insert(Root(name));
  for (const std::string& name : graph.outputs) wanted_roots.insert(Root(name));
  for (const PooledTensor& tensor : compiled.pooled) {
    if (options.keep_all || wanted_roots.count(tensor.name)) kept_roots.insert(tensor.name);
  }
  std::map<std::string, const Node*> nodes;
  for (const Node& node : graph.nodes) nodes[node.name] = &node;
  for (const Task& compiled_task : compiled.tasks) {
    const Node& node = *nodes.at(compiled_task.node);
    TaskRuntime task;
    StatusOr<KernelPlan> plan = BuildNodeKernel(graph, node, limits);
    if (plan.ok()) {
      task.plan = std::move(plan).value();
    } else {
      if (!options.cpu_fallback) return plan.status();
      GLPOOL_RETURN_IF_ERROR(CheckCpuFallback(graph, node, plan.status()));
      task.cpu_node = &node;
      task.plan.shader = "cpu_reference";
      task.plan.inputs = compiled_task.inputs;
      task.plan.outputs = compiled_task.outputs;
    }
    for (const std::string& name : task.plan.inputs) task.roots.push_back(Root(name));
    for (const std::string& name : task.plan.outputs) task.roots.push_back(Root(name));
    TaskInfo task_info{node.name, node.op_type, task.plan.shader, task.roots, task.cpu_node != nullptr};
    CountPartition(task, task_info);
    tasks.push_back(std::move(task));
    task_infos.push_back(std::move(task_info));
  }
  return Status::Ok();
}

void Executor::State::CountPartition(const TaskRuntime& task, const TaskInfo& info) {
  if (!info.on_cpu) {
    ++partition.gpu_tasks;
    return;
  }
  ++partition.cpu_tasks;
  partition.cpu_nodes.push_back(info.node + " (" + info.op_type + ")");
  for (size_t i = 0; i < task.roots.size(); ++i) {
    const bool output = i >= task.plan.inputs.size();
    const std::string& name = output ? task.plan.outputs[i - task.plan.inputs.size()] : task.plan.inputs[i];
    const uint64_t bytes = FootprintBytes(LayoutOfTensor(name), StoresHalf(task.roots[i]));
    ++(output ? partition.transfers_to_gpu : partition.transfers_to_cpu);
    (output ? partition.bytes_to_gpu : partition.bytes_to_cpu) += bytes;
  }
}

Executor::Executor(std::unique_ptr<State> state) : state_(std::move(state)) {}
Executor::~Executor() = default;

StatusOr<std::unique_ptr<Executor>> Executor::Create(Graph graph, const ExecutorOptions& options) {
  auto state = std::make_unique<State>();
  state->graph = std::move(graph);
  state->options = options;
  state->programs = options.programs ? options.programs : std::make_shared<ProgramCache>();
  StartupReport& startup = state->startup;
  auto step = std::chrono::steady_clock::now();
  GLPOOL_RETURN_IF_ERROR(state->BuildTasks());
  startup.tasks_ms = MsSince(step);
  // Precision is per object: a window (an in-place Concat's input) kept in
  // fp32 keeps the object it shares in fp32.
  for (const std::string& name : std::set<std::string>(state->options.fp32_tensors)) {
    state->options.fp32_tensors.insert(state->Root(name));
  }
  if (state->fp16()) {
    // Heads' logits stay fp32 whatever the calibration (precision_sensitive.h).
    for (const std::string& name : PrecisionSensitiveTensors(state->graph)) {
      const std::string root = state->Root(name);
      if (state->options.fp32_tensors.insert(root).second) state->logit_roots.insert(root);
    }
  }
  GLPOOL_RETURN_IF_ERROR(state->PlanPool());  // sets startup.plan_ms and objects_ms
  gl::CountPoolPlan();
  step = std::chrono::steady_clock::now();
  GLPOOL_RETURN_IF_ERROR(state->UploadConstantsAndWeights());
  startup.upload_ms = MsSince(step);
  step = std::chrono::steady_clock::now();
  const RuntimeCounters before = GetRuntimeCounters();
  GLPOOL_RETURN_IF_ERROR(state->CompilePrograms());
  const RuntimeCounters after = GetRuntimeCounters();
  startup.programs_ms = MsSince(step);
  startup.shaders_compiled = after.shader_compiles - before.shader_compiles;
  startup.programs_loaded = after.program_binary_loads - before.program_binary_loads;
  step = std::chrono::steady_clock::now();
  GLPOOL_RETURN_IF_ERROR(state->WarmPrograms());
  startup.warm_ms = MsSince(step);
  // kAuto spins on Mesa's llvmpipe, whose dispatches wait on its worker
  // threads (cpu_spin.h); GPU drivers wait on the GPU instead.
  const bool software = gl::IsLlvmpipe(state->info);
  const CpuSpin spin = state->options.cpu_spin;
  startup.cpu_spin = CpuSpinSupported() && (spin == CpuSpin::kOn || (spin == CpuSpin::kAuto && software));
  return std::unique_ptr<Executor>(new Executor(std::move(state)));
}

StatusOr<std::map<std::string, TensorData>> Executor::Run(const std::map<std::string, TensorData>& inputs) {
  return Run(inputs, GpuSideIo{});
}

StatusOr<std::map<std::string, TensorData>> Executor::Run(const std::map<std::string, TensorData>& inputs,
                                                          const GpuSideIo& gpu) {
  State& s = *state_;
  s.ran = false;
  const CpuSpinScope spin(s.startup.cpu_spin);
  if (s.is_dynamic()) {
    GLPOOL_RETURN_IF_ERROR(s.BeginDynamicRun());
    // Pooled inputs start at task 0: their objects must exist to upload.
    if (!s.tasks.empty()) GLPOOL_RETURN_IF_ERROR(s.MakeDynamicObjects(0));
  }
  for (const std::string& name : s.graph.inputs) {
    if (gpu.inputs.count(name)) continue;
    auto it = inputs.find(name);
    if (it == inputs.end()) return InvalidArgumentError("missing graph input '" + name + "'");
    const Tensor& tensor = s.TensorNamed(name);
    if (it->second.shape != tensor.shape) {
      return InvalidArgumentError("graph input '" + name + "' has shape " + ShapeToString(it->second.shape) +
                                  ", the model expects " + ShapeToString(tensor.shape));
    }
    if (!s.locations.count(s.Root(name))) continue;
    GLPOOL_ASSIGN_OR_RETURN(std::vector<float> values, ToGpuValues(it->second, name));
    GLPOOL_RETURN_IF_ERROR(s.WriteTensor(s.Root(name), values));
  }
  // What was written, or read, since the last barrier.
  std::vector<Span> written, read;
  bool image_writes = false, buffer_writes = false;
  s.task_ms.clear();
  s.task_gpu_ms.clear();
  // Timed runs: a GPU timestamp before the first task and after each one,
  // where the driver's timers see compute work. Until a run has shown that
  // they do, each task also waits with a glFinish and is timed on the wall
  // clock; once they do, the waits go: they idle the GPU between tasks, and
  // a real GPU then drops its clocks and times every task too slow.
  const bool gpu_timing = s.time_tasks && gl::GlTimerQueries::Supported() && s.timers_see_compute.value_or(true);
  const bool finish_each_task = s.time_tasks && !s.timers_see_compute.value_or(false);
  if (gpu_timing) {
    GLPOOL_RETURN_IF_ERROR(s.task_queries.Start(s.tasks.size() + 1));
    GLPOOL_RETURN_IF_ERROR(s.task_queries.Stamp(0));
  }
  const auto run_start = std::chrono::steady_clock::now();
  auto last_progress = run_start;
  for (size_t t = 0; t < s.tasks.size(); ++t) {
    const TaskRuntime& task = s.tasks[t];
    auto start = std::chrono::steady_clock::now();
    if (s.is_dynamic() && t > 0) GLPOOL_RETURN_IF_ERROR(s.MakeDynamicObjects(t));
    bool needs_barrier = false;
    const size_t inputs_count = task.plan.inputs.size();
    for (size_t i = 0; i < task.roots.size(); ++i) {
      const Location& location = s.locations.at(task.roots[i]);
      const Span span = SpanOf(location);
      if (AnyOverlap(written, span) || (i >= inputs_count && AnyOverlap(read, span))) needs_barrier = true;
    }
    if (needs_barrier) {
      GLbitfield bits = 0;
      if (image_writes) bits |= GL_SHADER_IMAGE_ACCESS_BARRIER_BIT;
      // Storage writes read back through texture-buffer views need the
      // texture-fetch bit as well.
      if (buffer_writes) bits |= GL_SHADER_STORAGE_BARRIER_BIT | GL_TEXTURE_FETCH_BARRIER_BIT;
      if (bits == 0) bits = GL_SHADER_STORAGE_BARRIER_BIT | GL_SHADER_IMAGE_ACCESS_BARRIER_BIT | GL_TEXTURE_FETCH_BARRIER_BIT;
      GLPOOL_GL_CALL(glMemoryBarrier(bits));
      written.clear();
      read.clear();
      image_writes = buffer_writes = false;
    }
    if (task.cpu_node != nullptr) {
      // Without per-task waits, a CPU task's wall time starts once the GPU
      // work before it is done, so that work is not counted as its own.
      if (s.time_tasks && !finish_each_task) {
        GLPOOL_GL_CALL(glFinish());
        start = std::chrono::steady_clock::now();
      }
      // Reading back waits for every earlier write; the uploads then count
      // as writes of both kinds (textures are filled by a copy kernel).
      GLPOOL_GL_CALL(glMemoryBarrier(GL_ALL_BARRIER_BITS));
      written.clear();
      read.clear();
      GLPOOL_RETURN_IF_ERROR(s.RunCpuTask(task));
      image_writes = buffer_writes = true;
    } else {
      GLPOOL_RETURN_IF_ERROR(s.BindTask(task));
      GLPOOL_RETURN_IF_ERROR(task.program->Dispatch(task.plan.groups[0], task.plan.groups[1], task.plan.groups[2]));
    }
    if (gpu_timing) GLPOOL_RETURN_IF_ERROR(s.task_queries.Stamp(t + 1));
    for (size_t i = 0; i < task.roots.size(); ++i) {
      const Location& location = s.locations.at(task.roots[i]);
      const Span span = SpanOf(location);
      if (i >= inputs_count) {
        written.push_back(span);
        (span.storage_class == 0 ? buffer_writes : image_writes) = true;
      } else {
        read.push_back(span);
      }
    }
    if (s.options.progress && MsSince(last_progress) >= 200) {
      // What the GPU has finished, not what was issued: wait for it.
      GLPOOL_GL_CALL(glFinish());
      last_progress = std::chrono::steady_clock::now();
      s.options.progress({t + 1, s.tasks.size(), MsSince(run_start)});
    }
    if (s.is_dynamic()) {
      GLPOOL_RETURN_IF_ERROR(s.ReleaseDynamicObjects(t));
      s.memory.live_bytes_after_task.push_back(s.dynamic.live_bytes);
    }
    if (s.time_tasks) {
      // GPU tasks' entries are replaced by their timer-query times below
      // when there are no waits.
      if (finish_each_task || task.cpu_node != nullptr) GLPOOL_GL_CALL(glFinish());
      s.task_ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
    }
  }
  if (gpu_timing) {
    GLPOOL_ASSIGN_OR_RETURN(std::vector<double> stamps, s.task_queries.ReadMsSinceFirst(s.tasks.size() + 1));
    // A driver whose timestamps do not see compute work reports the same
    // time around every task. When no task took a microsecond the stamps
    // measured nothing, so there are no GPU times rather than free tasks.
    bool measured = false;
    for (size_t t = 0; t + 1 < stamps.size(); ++t) measured = measured || stamps[t + 1] - stamps[t] >= 1e-3;
    // A disjoint event (no stamps) says nothing about the driver.
    if (!stamps.empty()) s.timers_see_compute = measured;
    if (measured) {
      s.task_gpu_ms.assign(s.tasks.size(), -1.0);
      for (size_t t = 0; t < s.tasks.size(); ++t) {
        if (s.tasks[t].cpu_node != nullptr) continue;
        s.task_gpu_ms[t] = stamps[t + 1] - stamps[t];
        if (!finish_each_task) s.task_ms[t] = s.task_gpu_ms[t];
      }
    }
    s.task_ms_from_gpu = measured && !finish_each_task;
  } else {
    s.task_ms_from_gpu = false;
  }
  GLPOOL_GL_CALL(glMemoryBarrier(GL_ALL_BARRIER_BITS));
  std::map<std::string, TensorData> outputs;
  for (const std::string& name : s.graph.outputs) {
    if (gpu.outputs.count(name)) continue;
    const Tensor& tensor = s.TensorNamed(name);
    const std::string root = s.Root(name);
    if (tensor.is_constant) {
      outputs[name] = tensor.data;
      continue;
    }
    auto input = inputs.find(root);
    if (input != inputs.end() && !s.locations.count(root)) {
      outputs[name] = input->second;
      outputs[name].shape = tensor.shape;  // an alias (Reshape, Squeeze...) of the input: its data, our shape
      continue;
    }
    GLPOOL_ASSIGN_OR_RETURN(std::vector<float> values, s.ReadTensor(root));
    GLPOOL_ASSIGN_OR_RETURN(outputs[name], FromGpuValues(tensor.dtype, tensor.shape, values, name));
  }
  if (s.is_dynamic()) {
    GLPOOL_RETURN_IF_ERROR(s.EndDynamicRun());
  } else {
    s.memory.peak_live_bytes = s.memory.gl_pool_bytes;
  }
  s.ran = true;
  return outputs;
}


const Graph& Executor::graph() const { return state_->graph; }
const std::shared_ptr<ProgramCache>& Executor::programs() const { return state_->programs; }

ExternalTensor Executor::External(const std::string& name) const {
  const State& s = *state_;
  ExternalTensor external;
  const Tensor* tensor = s.graph.FindTensor(name);
  if (tensor == nullptr || tensor->is_constant) return external;
  const std::string root = s.Root(name);
  auto it = s.locations.find(root);
  // Only a graph input or output's own object: an output aliasing an input
  // (a free Reshape) has the input's object, which the caller fills.
  const bool output_aliasing_input =
      root != name && std::find(s.graph.inputs.begin(), s.graph.inputs.end(), root) != s.graph.inputs.end();
  if (it == s.locations.end() || it->second.pool_object >= 0 || s.TensorNamed(root).is_constant ||
      output_aliasing_input) {
    return external;
  }
  external.present = true;
  external.storage = it->second.storage;
  external.half = s.StoresHalf(root);
  external.layout = s.LayoutOfTensor(name);
  if (external.storage == StorageKind::kBuffer) {
    external.gl_name = s.buffers[it->second.gl_object].id();
    external.bytes = s.buffers[it->second.gl_object].bytes();
  } else {
    external.gl_name = s.textures[it->second.gl_object].id();
    external.width = s.textures[it->second.gl_object].width();
  }
  return external;
}

Status Executor::BorrowBuffer(const std::string& name, GLuint buffer) {
  const ExternalTensor external = External(name);
  if (!external.present || external.storage != StorageKind::kBuffer) {
    return InternalError("tensor " + name + " has no buffer object of its own to replace");
  }
  const std::string& root = state_->Root(name);
  state_->locations.at(root).borrowed = buffer;
  // Tasks that read the tensor through a texture-buffer view read the
  // caller's buffer through a view of its own, made once per buffer.
  auto view = state_->input_views.find(root);
  if (buffer != 0 && view != state_->input_views.end()) {
    auto borrowed = state_->borrowed_views.find(root);
    if (borrowed == state_->borrowed_views.end() || borrowed->second.first != buffer) {
      const bool half = state_->StoresHalf(root);
      const uint64_t bytes = static_cast<uint64_t>(state_->LayoutOfTensor(root).texels()) * (half ? 8 : 16);
      GLPOOL_ASSIGN_OR_RETURN(gl::GlBufferTexture made, gl::GlBufferTexture::View(buffer, 0, bytes, half));
      state_->borrowed_views.erase(root);
      state_->borrowed_views.emplace(root, std::make_pair(buffer, std::move(made)));
    }
  }
  return Status::Ok();
}

const MemoryReport& Executor::memory() const { return state_->memory; }
const std::vector<PoolObject>& Executor::objects() const { return state_->pool; }
const std::vector<PlacedTensor>& Executor::tensors() const { return state_->pooled; }
const std::vector<TaskInfo>& Executor::tasks() const { return state_->task_infos; }
const PartitionReport& Executor::partition() const { return state_->partition; }
const StartupReport& Executor::startup() const { return state_->startup; }
const std::vector<double>& Executor::task_ms() const { return state_->task_ms; }
const std::vector<double>& Executor::task_gpu_ms() const { return state_->task_gpu_ms; }
bool Executor::task_ms_from_gpu() const { return state_->task_ms_from_gpu; }
void Executor::set_time_tasks(bool on) { state_->time_tasks = on; }

}  // namespace glpool
