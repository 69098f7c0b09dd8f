// Each task's program and bindings: which binding point or texture unit
// every tensor and weight takes (Bindings), the programs compiled through
// the shared cache (CompilePrograms), warmed with one work group each
// before the first Run (WarmPrograms), and bound for a dispatch (BindTask).
#include <string>
#include <utility>
#include <vector>

#include "gpu_backend/gl/gl_call.h"
#include "gpu_backend/runtime/executor_state.h"
#include "gpu_backend/runtime/shader_assembly.h"
#include "shaders/embedded_shaders.h"

namespace glpool {

using gl::GlBuffer;

StatusOr<std::vector<TensorBinding>> Executor::State::Bindings(const TaskRuntime& task,
                                                               std::vector<WeightBinding>* weights) const {
  std::vector<TensorBinding> bindings;
  uint32_t image_unit = 0, ssbo = 0;
  const size_t inputs = task.plan.inputs.size();
  for (size_t i = 0; i < task.roots.size(); ++i) {
    const bool output = i >= inputs;
    const std::string& name = output ? task.plan.outputs[i - inputs] : task.plan.inputs[i];
    const Location& location = locations.at(task.roots[i]);
    TensorBinding binding;
    binding.role = output ? "out" + std::to_string(i - inputs) : "in" + std::to_string(i);
    binding.is_output = output;
    binding.storage = location.storage;
    binding.fp16 = StoresHalf(task.roots[i]);
    binding.layout = LayoutOfTensor(name);
    binding.slice_base = SliceOffset(name);
    binding.binding = location.storage == StorageKind::kBuffer ? ssbo++ : image_unit++;
    bindings.push_back(binding);
  }
  uint32_t ubo = 0, texture_unit = 0;
  for (size_t w = 0; w < task.plan.weights.size(); ++w) {
    const std::string& name = task.plan.weights[w].name;
    const WeightObject& object = task.weights.at(w);
    switch (object.home) {
      case WeightHome::kUniformBlock:
        weights->push_back({name, ubo++, object.vec4s, false, ""});
        break;
      case WeightHome::kTextureBuffer:
        weights->push_back({name, texture_unit++, 0, false, texture_buffer_directive});
        break;
      case WeightHome::kTexture:
        weights->push_back({name, texture_unit++, 0, true, ""});
        break;
      case WeightHome::kStorageBuffer:
        weights->push_back({name, ssbo++, 0, false, ""});
        break;
    }
  }
  // Texture units: the weights' first, then views of buffer inputs while
  // units last (an input past them is read from its storage buffer).
  for (size_t i = 0; i < inputs; ++i) {
    if (!input_views.count(task.roots[i]) ||
        texture_unit >= static_cast<uint32_t>(info.max_compute_texture_units)) {
      continue;
    }
    bindings[i].texture_buffer_directive = texture_buffer_directive;
    bindings[i].texture_unit = texture_unit++;
  }
  return bindings;
}

Status Executor::State::CompilePrograms() {
  GLPOOL_RETURN_IF_ERROR(MakeInputViews());
  // Every task's program first, so the cache asks the driver for all the
  // compiles before waiting for one; then each task takes its own.
  std::vector<std::pair<std::string, std::string>> sources;  // (name, assembled), in task order
  for (TaskRuntime& task : tasks) {
    if (task.cpu_node != nullptr) continue;
    std::vector<WeightBinding> weights;
    GLPOOL_ASSIGN_OR_RETURN(std::vector<TensorBinding> bindings, Bindings(task, &weights));
    GLPOOL_ASSIGN_OR_RETURN(std::string source, ShaderSource(task.plan.shader));
    auto defines = task.plan.defines;
    defines.emplace_back("LOCAL_X", std::to_string(task.plan.local_size[0]));
    defines.emplace_back("LOCAL_Y", std::to_string(task.plan.local_size[1]));
    defines.emplace_back("LOCAL_Z", std::to_string(task.plan.local_size[2]));
    const std::string name = "shaders/" + task.plan.shader + ".comp";
    GLPOOL_ASSIGN_OR_RETURN(std::string assembled, AssembleKernel(name, source, defines, bindings, weights));
    sources.emplace_back(name, std::move(assembled));
  }
  GLPOOL_RETURN_IF_ERROR(programs->Prepare(sources));
  size_t next = 0;
  for (TaskRuntime& task : tasks) {
    if (task.cpu_node != nullptr) continue;
    const auto& [name, assembled] = sources[next++];
    GLPOOL_ASSIGN_OR_RETURN(task.program, programs->Get(name, assembled));
  }
  return Status::Ok();
}

Status Executor::State::WarmPrograms() {
  // llvmpipe makes a program's machine code at its first dispatch (the
  // variant for the bound objects' formats): about 1 ms per program from
  // Mesa's shader cache, seconds when the cache is cold. One work group of
  // each, over the objects its task binds, moves that out of the first Run
  // (mobilenet_v2, warm caches: its first run 2.0-2.4x a steady one
  // before). What the groups write is garbage a Run overwrites. Dynamic
  // mode makes and releases its objects around each task as a Run does
  // (its first run took 58 s with Mesa's cache cold, the programs' code
  // made there instead).
  if (is_dynamic()) GLPOOL_RETURN_IF_ERROR(BeginDynamicRun());
  for (size_t t = 0; t < tasks.size(); ++t) {
    const TaskRuntime& task = tasks[t];
    if (is_dynamic()) GLPOOL_RETURN_IF_ERROR(MakeDynamicObjects(t));
    const auto& groups = task.plan.groups;
    if (task.cpu_node == nullptr && groups[0] != 0 && groups[1] != 0 && groups[2] != 0) {
      GLPOOL_RETURN_IF_ERROR(BindTask(task));
      GLPOOL_RETURN_IF_ERROR(task.program->Dispatch(1, 1, 1));
    }
    if (is_dynamic()) GLPOOL_RETURN_IF_ERROR(ReleaseDynamicObjects(t));
  }
  GLPOOL_GL_CALL(glFinish());
  if (is_dynamic()) GLPOOL_RETURN_IF_ERROR(EndDynamicRun());
  return Status::Ok();
}

Status Executor::State::BindTask(const TaskRuntime& task) const {
  std::vector<WeightBinding> weights;
  GLPOOL_ASSIGN_OR_RETURN(std::vector<TensorBinding> bindings, Bindings(task, &weights));
  std::vector<Span> bound;
  for (size_t i = 0; i < bindings.size(); ++i) {
    const Location& location = locations.at(task.roots[i]);
    const Span span = SpanOf(location);
    // A node may read one tensor twice (x * x): two read-only bindings of the
    // same tensor are fine. Anything else sharing bytes breaks exclusivity.
    bool twice = false;
    for (size_t j = 0; j < bound.size(); ++j) {
      const bool same_tensor_read = task.roots[j] == task.roots[i] && !bindings[i].is_output &&
                                    !bindings[j].is_output;
      if (bound[j].Overlaps(span) && !same_tensor_read) twice = true;
    }
    bound.push_back(span);
    if (twice) {
      return InternalError("single-shader exclusivity broken: task " + task.plan.shader + " binds the object of " +
                           task.roots[i] + " twice");
    }
    if (!bindings[i].texture_buffer_directive.empty()) {
      const gl::GlBufferTexture& view =
          location.borrowed != 0 ? borrowed_views.at(task.roots[i]).second : input_views.at(task.roots[i]);
      GLPOOL_RETURN_IF_ERROR(view.BindAsSampler(bindings[i].texture_unit));
    } else if (location.borrowed != 0) {
      GLPOOL_GL_CALL(glBindBufferBase(GL_SHADER_STORAGE_BUFFER, bindings[i].binding, location.borrowed));
    } else if (location.storage == StorageKind::kBuffer) {
      const GlBuffer& buffer = buffers[location.gl_object];
      if (location.arena) {
        GLPOOL_RETURN_IF_ERROR(buffer.BindRange(bindings[i].binding, location.offset, location.size));
      } else {
        GLPOOL_RETURN_IF_ERROR(buffer.BindToIndex(bindings[i].binding));
      }
    } else {
      GLPOOL_RETURN_IF_ERROR(textures[location.gl_object].BindAsImage(
          bindings[i].binding, bindings[i].is_output ? GL_WRITE_ONLY : GL_READ_ONLY));
    }
  }
  for (size_t w = 0; w < weights.size(); ++w) {
    const WeightObject& object = task.weights[w];
    switch (object.home) {
      case WeightHome::kUniformBlock:
        GLPOOL_RETURN_IF_ERROR(buffers[object.index].BindUniformToIndex(weights[w].binding));
        break;
      case WeightHome::kTextureBuffer:
        GLPOOL_RETURN_IF_ERROR(buffer_textures[object.index].BindAsSampler(weights[w].binding));
        break;
      case WeightHome::kTexture:
        GLPOOL_RETURN_IF_ERROR(textures[object.index].BindAsSampler(weights[w].binding));
        break;
      case WeightHome::kStorageBuffer:
        GLPOOL_RETURN_IF_ERROR(buffers[object.index].BindToIndex(weights[w].binding));
        break;
    }
  }
  return Status::Ok();
}

}  // namespace glpool
