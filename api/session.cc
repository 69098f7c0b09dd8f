#include "glpool/session.h"

#include <glad/gles2.h>

#include <algorithm>
#include <chrono>
#include <set>

#include "api/current_context.h"
#include "api/gpu_binding.h"
#include "api/model_impl.h"
#include "api/program_sharing.h"
#include "gpu_backend/compile/memory_order.h"
#include "gpu_backend/cpu_reference/executor.h"
#include "gpu_backend/gl/gl_call.h"
#include "gpu_backend/gl/gl_counters.h"
#include "gpu_backend/runtime/executor.h"
#include "gpu_backend/runtime/fp16_calibration.h"

namespace glpool {
namespace {

// Everything kept for one set of input shapes.
struct ShapePlan {
  std::map<std::string, Shape> shapes;
  Graph graph;                          // the CPU reference runs this
  std::unique_ptr<Executor> executor;   // GPU backend
  StartupReport startup;
};

double MsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

std::string ShapesKey(const std::map<std::string, Shape>& shapes) {
  std::string key;
  for (const auto& [name, shape] : shapes) key += name + "=" + ShapeToString(shape) + ";";
  return key;
}

TensorInfo InfoOf(const Graph& graph, const std::string& name) {
  TensorInfo info;
  info.name = name;
  if (const Tensor* tensor = graph.FindTensor(name)) {
    info.dtype = tensor->dtype;
    for (int64_t d : tensor->shape) info.dims.push_back(Dim{d, ""});
  }
  return info;
}

}  // namespace

struct Session::Impl {
  Model model;
  SessionOptions options;
  std::shared_ptr<ProgramCache> programs;
  std::set<std::string> fp32_tensors;  // fp16: calibrated once, kept at every shape
  std::set<std::string> fp32_accuracy_tensors;  // the part kept for the outputs' accuracy
  std::map<std::string, std::unique_ptr<ShapePlan>> plans;
  ShapePlan* current = nullptr;
  std::map<std::string, GpuObject> bound_inputs, bound_outputs;
  // Empty reports for the CPU reference.
  MemoryReport no_memory;
  std::vector<PoolObject> no_objects;
  std::vector<PlacedTensor> no_tensors;
  std::vector<TaskInfo> no_tasks;
  PartitionReport no_partition;
  std::vector<double> no_times;
  // CPU reference: the last Run's inputs, outputs and kept intermediates,
  // for ReadTensor.
  std::map<std::string, TensorData> cpu_values;
  // Set once a reset is seen: a lost context's objects are gone, so this
  // session refuses to run again (its destructor still deletes its names).
  bool context_lost = false;

  explicit Impl(Model m) : model(std::move(m)) {}
  Status CheckContext();
  bool gpu() const { return options.backend == Backend::kGpu; }
  StatusOr<ShapePlan*> PlanFor(const std::map<std::string, Shape>& requested);
  Status CheckInputs(const std::map<std::string, TensorData>& inputs) const;
  Status MoveBoundInputs();
  Status MoveBoundOutputs();
  StatusOr<std::map<std::string, TensorData>> RunCpuReference(const std::map<std::string, TensorData>& inputs);
};

// The CPU reference computes every tensor; like the GPU it keeps only the
// ones asked for, so ReadTensor answers the same on both backends.
StatusOr<std::map<std::string, TensorData>> Session::Impl::RunCpuReference(
    const std::map<std::string, TensorData>& inputs) {
  cpu_values.clear();
  cpu_reference::RunOptions run_options;
  run_options.keep_all_tensors = options.keep_all || !options.keep.empty();
  GLPOOL_ASSIGN_OR_RETURN(auto values, cpu_reference::RunGraph(current->graph, inputs, run_options));
  const Graph& graph = current->graph;
  std::map<std::string, TensorData> outputs;
  for (const std::string& name : graph.outputs) {
    auto it = values.find(name);
    if (it != values.end()) outputs[name] = it->second;
  }
  if (!options.inputs_in_pool) {
    for (const auto& [name, data] : inputs) cpu_values[name] = data;
  }
  cpu_values.insert(outputs.begin(), outputs.end());
  const std::set<std::string> keep(options.keep.begin(), options.keep.end());
  for (auto& [name, data] : values) {
    if (options.keep_all || keep.count(name)) cpu_values.emplace(name, std::move(data));
  }
  return outputs;
}

// GLES 3.2's reset status (the KHR_robustness query): a context reset by
// the driver (a GPU hang, a driver update, another app's fault) reports it
// here; contexts made without a reset strategy always answer GL_NO_ERROR.
Status Session::Impl::CheckContext() {
  if (!context_lost) {
    const bool injected = gl::InjectedFaultDue(GlFault::kContextLost);
    GLenum reset = GL_NO_ERROR;
    if (glad_glGetGraphicsResetStatus != nullptr) reset = glGetGraphicsResetStatus();
    context_lost = injected || reset != GL_NO_ERROR;
  }
  if (context_lost) {
    return ContextLostError(model.label() +
                            ": the GL context was lost (reset); its objects are gone. Destroy this Session, make a "
                            "new context current and create a new Session");
  }
  return Status::Ok();
}

StatusOr<ShapePlan*> Session::Impl::PlanFor(const std::map<std::string, Shape>& requested) {
  GLPOOL_ASSIGN_OR_RETURN(auto shapes, ResolveInputShapes(model, requested));
  const std::string key = ShapesKey(shapes);
  auto it = plans.find(key);
  if (it != plans.end()) return it->second.get();
  auto plan = std::make_unique<ShapePlan>();
  plan->shapes = shapes;
  auto step = std::chrono::steady_clock::now();
  GLPOOL_ASSIGN_OR_RETURN(plan->graph, ImportAtShapes(model, shapes));
  plan->startup.import_ms = MsSince(step);
  if (gpu() && options.node_order == NodeOrder::kMemory) {
    MemoryOrderOptions order_options;
    order_options.precision = options.precision;
    order_options.budget_seconds = options.order_budget_seconds;
    step = std::chrono::steady_clock::now();
    StatusOr<MemoryOrderResult> ordered = OrderForMemory(plan->graph, order_options);
    if (!ordered.ok()) return ordered.status().WithContext(model.label() + ": memory order");
    plan->graph = std::move(ordered->graph);
    plan->startup.order_ms = MsSince(step);
  }
  if (gpu()) {
    ExecutorOptions executor_options;
    executor_options.objects = options.objects;
    executor_options.precision = options.precision;
    executor_options.strategy = options.strategy;
    executor_options.budget_seconds = options.arena_budget_seconds;
    executor_options.memory_budget_bytes = options.memory_budget_bytes;
    executor_options.programs = programs;
    executor_options.cpu_fallback = options.cpu_fallback;
    executor_options.memory_mode = options.memory_mode;
    executor_options.winograd = options.winograd;
    executor_options.inputs_in_pool = options.inputs_in_pool;
    executor_options.outputs_in_pool = options.outputs_in_pool;
    executor_options.keep = std::set<std::string>(options.keep.begin(), options.keep.end());
    executor_options.keep_all = options.keep_all;
    executor_options.pools = options.pools;
    executor_options.progress = options.progress;
    executor_options.cpu_spin = options.cpu_spin;
    if (options.precision == Precision::kFp16 && plans.empty() && !options.calibration_inputs.empty()) {
      step = std::chrono::steady_clock::now();
      Fp16CalibrationOptions calibration_options;
      calibration_options.tolerance = options.fp16_tolerance;
      calibration_options.programs = programs;
      StatusOr<Fp16Calibration> calibration =
          CalibrateFp16(plan->graph, options.calibration_inputs, calibration_options);
      if (!calibration.ok()) return calibration.status().WithContext(model.label() + ": fp16 calibration");
      fp32_tensors = calibration->Fp32Tensors();
      fp32_accuracy_tensors = calibration->accuracy_tensors;
      plan->startup.calibration_ms = MsSince(step);
      plan->startup.calibration_runs = calibration->probe_runs;
      plan->startup.fp16_half_error = calibration->half_error;
      plan->startup.fp16_error = calibration->error;
    }
    executor_options.fp32_tensors = fp32_tensors;
    executor_options.fp32_accuracy_tensors = fp32_accuracy_tensors;
    StatusOr<std::unique_ptr<Executor>> executor = Executor::Create(plan->graph, executor_options);
    if (!executor.ok()) return executor.status().WithContext(model.label());
    plan->executor = std::move(executor).value();
    const StartupReport& steps = plan->executor->startup();
    StartupReport& startup = plan->startup;
    startup.tasks_ms = steps.tasks_ms;
    startup.plan_ms = steps.plan_ms;
    startup.objects_ms = steps.objects_ms;
    startup.upload_ms = steps.upload_ms;
    startup.programs_ms = steps.programs_ms;
    startup.warm_ms = steps.warm_ms;
    startup.shaders_compiled = steps.shaders_compiled;
    startup.programs_loaded = steps.programs_loaded;
    startup.cpu_spin = steps.cpu_spin;
    plan->executor->set_time_tasks(options.time_tasks);
  }
  ShapePlan* result = plan.get();
  plans[key] = std::move(plan);
  return result;
}

Status Session::Impl::CheckInputs(const std::map<std::string, TensorData>& inputs) const {
  const Graph& graph = current->graph;
  for (const auto& [name, data] : inputs) {
    if (std::find(graph.inputs.begin(), graph.inputs.end(), name) == graph.inputs.end()) {
      return InvalidArgumentError("Run: the model has no input named '" + name + "'");
    }
    if (bound_inputs.count(name)) {
      return InvalidArgumentError("Run: input '" + name + "' is bound to a GL object; unbind it to pass a tensor");
    }
  }
  for (const std::string& name : graph.inputs) {
    if (bound_inputs.count(name)) continue;
    auto it = inputs.find(name);
    if (it == inputs.end()) return InvalidArgumentError("Run: no tensor for input '" + name + "'");
    const Tensor& expected = *graph.FindTensor(name);
    if (it->second.dtype != expected.dtype) {
      return BadTypeError("Run: input '" + name + "' is " + DataTypeName(it->second.dtype) + ", the model expects " +
                          DataTypeName(expected.dtype));
    }
    if (it->second.shape != expected.shape) {
      return BadShapeError("Run: input '" + name + "' has shape " + ShapeToString(it->second.shape) +
                           ", the session is at " + ShapeToString(expected.shape) + " (Reshape to change it)");
    }
    const size_t bytes = static_cast<size_t>(ElementCount(expected.shape)) * DataTypeSize(expected.dtype);
    if (it->second.bytes.size() != bytes) {
      return BadShapeError("Run: input '" + name + "' holds " + std::to_string(it->second.bytes.size()) +
                           " bytes, its shape and dtype need " + std::to_string(bytes));
    }
  }
  return Status::Ok();
}

Status Session::Impl::MoveBoundInputs() {
  Executor& executor = *current->executor;
  const Graph& graph = current->graph;
  if (!bound_inputs.empty()) {
    // The app may have written its objects from its own shaders.
    GLPOOL_GL_CALL(glMemoryBarrier(GL_ALL_BARRIER_BITS));
  }
  for (const std::string& name : graph.inputs) {
    const ExternalTensor external = executor.External(name);
    auto it = bound_inputs.find(name);
    if (it != bound_inputs.end()) {
      if (executor.Pooled(name)) {
        return UnsupportedError("input '" + name + "' is planned in the pool (SessionOptions::inputs_in_pool), so "
                                "it has no object of its own to fill from a bound GL object; turn inputs_in_pool "
                                "off to bind it");
      }
      // Before the executor reads it in place (a view of its bytes).
      GLPOOL_RETURN_IF_ERROR(CheckGpuObject(name, it->second, graph.FindTensor(name)->shape, external));
    }
    const bool zero_copy = it != bound_inputs.end() && external.present && IsZeroCopy(it->second, external);
    if (external.present && external.storage == StorageKind::kBuffer) {
      GLPOOL_RETURN_IF_ERROR(executor.BorrowBuffer(name, zero_copy ? it->second.gl_name : 0));
    }
    if (it == bound_inputs.end()) continue;
    // An input no task reads needs nothing moved.
    if (!external.present || zero_copy) continue;
    GLPOOL_TRY_CONTEXT(ConvertGpuObject(*programs, it->second, external, true), "input '" + name + "'");
  }
  if (!bound_inputs.empty()) GLPOOL_GL_CALL(glMemoryBarrier(GL_ALL_BARRIER_BITS));
  for (const std::string& name : graph.outputs) {
    const ExternalTensor external = executor.External(name);
    auto it = bound_outputs.find(name);
    if (it == bound_outputs.end()) {
      if (external.present && external.storage == StorageKind::kBuffer &&
          std::find(graph.inputs.begin(), graph.inputs.end(), name) == graph.inputs.end()) {
        GLPOOL_RETURN_IF_ERROR(executor.BorrowBuffer(name, 0));
      }
      continue;
    }
    if (executor.Pooled(name)) {
      return UnsupportedError("output '" + name + "' is planned in the pool (SessionOptions::outputs_in_pool), so "
                              "it has no object of its own to share with a bound GL object; turn outputs_in_pool "
                              "off to bind it");
    }
    if (!external.present) {
      return UnsupportedError("output '" + name + "' has no GPU object of its own (a constant, or an alias of an "
                              "input); read it from Run's result instead of binding it");
    }
    GLPOOL_RETURN_IF_ERROR(CheckGpuObject(name, it->second, graph.FindTensor(name)->shape, external));
    if (external.storage == StorageKind::kBuffer) {
      GLPOOL_RETURN_IF_ERROR(executor.BorrowBuffer(name, IsZeroCopy(it->second, external) ? it->second.gl_name : 0));
    }
  }
  return Status::Ok();
}

Status Session::Impl::MoveBoundOutputs() {
  Executor& executor = *current->executor;
  for (const auto& [name, object] : bound_outputs) {
    const ExternalTensor external = executor.External(name);
    if (IsZeroCopy(object, external)) continue;
    GLPOOL_TRY_CONTEXT(ConvertGpuObject(*programs, object, external, false), "output '" + name + "'");
  }
  if (!bound_outputs.empty()) GLPOOL_GL_CALL(glMemoryBarrier(GL_ALL_BARRIER_BITS));
  return Status::Ok();
}

Session::Session(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Session::~Session() = default;

StatusOr<std::unique_ptr<Session>> Session::Create(const Model& model, const SessionOptions& options) {
  auto impl = std::make_unique<Impl>(model);
  impl->options = options;
  if (impl->gpu()) {
    GLPOOL_RETURN_IF_ERROR(LoadGlFromCurrentContext());
    impl->programs = ProgramsOfCurrentContext();
    if (!options.program_cache_dir.empty()) {
      GLPOOL_TRY_CONTEXT(impl->programs->SetBinaryDirectory(options.program_cache_dir), "program cache");
    }
  }
  GLPOOL_ASSIGN_OR_RETURN(impl->current, impl->PlanFor(options.input_shapes));
  return std::unique_ptr<Session>(new Session(std::move(impl)));
}

std::vector<TensorInfo> Session::inputs() const {
  std::vector<TensorInfo> infos;
  for (const std::string& name : impl_->current->graph.inputs) infos.push_back(InfoOf(impl_->current->graph, name));
  return infos;
}

std::vector<TensorInfo> Session::outputs() const {
  std::vector<TensorInfo> infos;
  for (const std::string& name : impl_->current->graph.outputs) infos.push_back(InfoOf(impl_->current->graph, name));
  return infos;
}

Status Session::Reshape(const std::map<std::string, Shape>& input_shapes) {
  std::map<std::string, Shape> shapes = impl_->current->shapes;
  for (const auto& [name, shape] : input_shapes) {
    if (!shapes.count(name)) return InvalidArgumentError("Reshape: the model has no input named '" + name + "'");
    shapes[name] = shape;
  }
  if (impl_->gpu()) {
    if (impl_->context_lost) return impl_->CheckContext();
    GLPOOL_RETURN_IF_ERROR(LoadGlFromCurrentContext());
  }
  GLPOOL_ASSIGN_OR_RETURN(impl_->current, impl_->PlanFor(shapes));
  return Status::Ok();
}

void Session::ForgetOtherShapes() {
  for (auto it = impl_->plans.begin(); it != impl_->plans.end();) {
    it = it->second.get() == impl_->current ? std::next(it) : impl_->plans.erase(it);
  }
}

Status Session::BindInput(const std::string& name, GpuObject object) {
  if (!impl_->gpu()) return UnsupportedError("BindInput: the CPU reference backend takes no GL objects");
  const auto& inputs = impl_->current->graph.inputs;
  if (std::find(inputs.begin(), inputs.end(), name) == inputs.end()) {
    return InvalidArgumentError("BindInput: the model has no input named '" + name + "'");
  }
  impl_->bound_inputs[name] = object;
  return Status::Ok();
}

Status Session::BindOutput(const std::string& name, GpuObject object) {
  if (!impl_->gpu()) return UnsupportedError("BindOutput: the CPU reference backend takes no GL objects");
  const auto& outputs = impl_->current->graph.outputs;
  if (std::find(outputs.begin(), outputs.end(), name) == outputs.end()) {
    return InvalidArgumentError("BindOutput: the model has no output named '" + name + "'");
  }
  impl_->bound_outputs[name] = object;
  return Status::Ok();
}

void Session::UnbindAll() {
  impl_->bound_inputs.clear();
  impl_->bound_outputs.clear();
}

StatusOr<std::map<std::string, TensorData>> Session::Run(const std::map<std::string, TensorData>& inputs) {
  Impl& s = *impl_;
  GLPOOL_RETURN_IF_ERROR(s.CheckInputs(inputs));
  if (!s.gpu()) return s.RunCpuReference(inputs);
  GLPOOL_RETURN_IF_ERROR(s.CheckContext());
  GLPOOL_RETURN_IF_ERROR(s.MoveBoundInputs());
  GpuSideIo gpu;
  for (const auto& [name, object] : s.bound_inputs) gpu.inputs.insert(name);
  for (const auto& [name, object] : s.bound_outputs) gpu.outputs.insert(name);
  StatusOr<std::map<std::string, TensorData>> outputs = s.current->executor->Run(inputs, gpu);
  if (!outputs.ok()) {
    // A failure caused by a reset is reported as the reset.
    GLPOOL_RETURN_IF_ERROR(s.CheckContext());
    return outputs.status().WithContext(s.model.label());
  }
  GLPOOL_RETURN_IF_ERROR(s.MoveBoundOutputs());
  return outputs;
}

StatusOr<TensorData> Session::ReadTensor(const std::string& name) const {
  const Impl& s = *impl_;
  if (s.gpu()) {
    StatusOr<TensorData> read = s.current->executor->ReadTensor(name);
    if (!read.ok()) return read.status().WithContext(s.model.label());
    return read;
  }
  const Graph& graph = s.current->graph;
  const Tensor* tensor = graph.FindTensor(name);
  if (tensor == nullptr) {
    return NotFoundError(s.model.label() + ": ReadTensor: no tensor named '" + name + "' in the graph as it runs");
  }
  if (tensor->is_constant) return tensor->data;
  auto it = s.cpu_values.find(name);
  if (it != s.cpu_values.end()) return it->second;
  return RemovedError(s.model.label() + ": tensor '" + name + "' was not kept. Keep it to read it after Run: " +
                      "SessionOptions::keep (glpool run --keep " + name + ") or keep_all (--keep-all)");
}

const StartupReport& Session::startup() const { return impl_->current->startup; }

const MemoryReport& Session::memory() const {
  return impl_->gpu() ? impl_->current->executor->memory() : impl_->no_memory;
}
const std::vector<PoolObject>& Session::objects() const {
  return impl_->gpu() ? impl_->current->executor->objects() : impl_->no_objects;
}
const std::vector<PlacedTensor>& Session::tensors() const {
  return impl_->gpu() ? impl_->current->executor->tensors() : impl_->no_tensors;
}
const std::vector<TaskInfo>& Session::tasks() const {
  return impl_->gpu() ? impl_->current->executor->tasks() : impl_->no_tasks;
}
const PartitionReport& Session::partition() const {
  return impl_->gpu() ? impl_->current->executor->partition() : impl_->no_partition;
}
const std::vector<double>& Session::task_ms() const {
  return impl_->gpu() ? impl_->current->executor->task_ms() : impl_->no_times;
}
bool Session::task_ms_from_gpu() const { return impl_->gpu() && impl_->current->executor->task_ms_from_gpu(); }
const std::vector<double>& Session::task_gpu_ms() const {
  return impl_->gpu() ? impl_->current->executor->task_gpu_ms() : impl_->no_times;
}
void Session::set_time_tasks(bool on) {
  impl_->options.time_tasks = on;
  for (auto& [key, plan] : impl_->plans) {
    if (plan->executor) plan->executor->set_time_tasks(on);
  }
}
const SessionOptions& Session::options() const { return impl_->options; }

}  // namespace glpool
