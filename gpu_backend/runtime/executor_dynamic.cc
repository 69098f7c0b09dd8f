// MemoryMode::kDynamic, and reading kept tensors after a run.
//
// Dynamic: every pooled tensor has its own slot in State::buffers or
// State::textures, empty between runs. During a run its object is made
// (glBufferData / glTexStorage2D) right before its first task. After its
// last task a fence goes into the command stream; once the fence has
// passed, the object is deleted. Deleting earlier would be legal GL (the
// driver defers it) but the memory would not come back any sooner, and the
// executor's count of live bytes would claim it had. Kept tensors (pooled
// graph outputs among them) stay until the next run starts, so ReadTensor
// can read them after Run.
#include <algorithm>

#include "gpu_backend/runtime/executor_state.h"
#include "gpu_backend/runtime/gpu_values.h"

namespace glpool {

using gl::GlBuffer;
using gl::GlTexture;

void Executor::State::PrepareDynamic() {
  const size_t task_count = std::max<size_t>(tasks.size(), 1);
  dynamic.first_at.assign(task_count, {});
  dynamic.last_at.assign(task_count, {});
  dynamic.made.assign(pooled.size(), false);
  for (size_t i = 0; i < pooled.size(); ++i) {
    const PlacedTensor& tensor = pooled[i];
    dynamic.first_at[static_cast<size_t>(tensor.first_task)].push_back(i);
    if (!kept_roots.count(tensor.name)) dynamic.last_at[static_cast<size_t>(tensor.last_task)].push_back(i);
  }
  memory.objects_made_per_run = pooled.size();
}

// Empties one tensor's slot: the GL object is deleted by its owner.
void Executor::State::DeleteDynamicObject(size_t tensor) {
  const Location& location = locations.at(pooled[tensor].name);
  if (location.storage == StorageKind::kBuffer) {
    // The view before the buffer it shows.
    auto view = input_views.find(pooled[tensor].name);
    if (view != input_views.end()) view->second = gl::GlBufferTexture();
    buffers[location.gl_object] = GlBuffer();
  } else {
    textures[location.gl_object] = GlTexture();
  }
  dynamic.made[tensor] = false;
  dynamic.live_bytes -= pool[pooled[tensor].object].bytes;
}

Status Executor::State::BeginDynamicRun() {
  // A failed run may have left releases pending; the objects go either way.
  dynamic.releasing.clear();
  for (size_t i = 0; i < pooled.size(); ++i) {
    if (dynamic.made[i]) DeleteDynamicObject(i);
  }
  memory.peak_live_bytes = 0;
  memory.live_bytes_after_task.clear();
  return Status::Ok();
}

Status Executor::State::MakeDynamicObjects(size_t task) {
  GLPOOL_RETURN_IF_ERROR(DeleteReleased(false));
  for (size_t i : dynamic.first_at[task]) {
    const PoolObject& object = pool[pooled[i].object];
    const Location& location = locations.at(pooled[i].name);
    if (object.storage == StorageKind::kTexture2D) {
      GLPOOL_ASSIGN_OR_RETURN(textures[location.gl_object],
                              GlTexture::Create2D(static_cast<uint32_t>(object.width),
                                                  static_cast<uint32_t>(object.height), TextureFormatFor(object.half)));
    } else {
      GLPOOL_ASSIGN_OR_RETURN(buffers[location.gl_object], GlBuffer::CreateUninitialized(object.bytes));
      // Tasks read it through a texture-buffer view where MakeInputViews
      // said it would have one (llvmpipe gathers a texel per lane there,
      // storage loads lane by lane and component by component).
      auto view = input_views.find(pooled[i].name);
      if (view != input_views.end()) {
        GLPOOL_ASSIGN_OR_RETURN(view->second, gl::GlBufferTexture::View(buffers[location.gl_object].id(), 0,
                                                                         object.bytes, object.half));
      }
    }
    dynamic.made[i] = true;
    dynamic.live_bytes += object.bytes;
  }
  memory.peak_live_bytes = std::max(memory.peak_live_bytes, dynamic.live_bytes);
  return Status::Ok();
}

Status Executor::State::ReleaseDynamicObjects(size_t task) {
  if (dynamic.last_at[task].empty()) return Status::Ok();
  GLPOOL_ASSIGN_OR_RETURN(gl::GlFence fence, gl::GlFence::Insert());
  dynamic.releasing.push_back({std::move(fence), dynamic.last_at[task]});
  return Status::Ok();
}

Status Executor::State::DeleteReleased(bool wait) {
  // Fences pass in the order they were inserted: stop at the first one the
  // GPU has not reached (unless waiting for all).
  size_t done = 0;
  for (; done < dynamic.releasing.size(); ++done) {
    DynamicObjects::Release& release = dynamic.releasing[done];
    if (wait) {
      GLPOOL_RETURN_IF_ERROR(release.fence.Wait());
    } else {
      GLPOOL_ASSIGN_OR_RETURN(const bool passed, release.fence.Signaled());
      if (!passed) break;
    }
    for (size_t tensor : release.tensors) DeleteDynamicObject(tensor);
  }
  dynamic.releasing.erase(dynamic.releasing.begin(), dynamic.releasing.begin() + static_cast<std::ptrdiff_t>(done));
  return Status::Ok();
}

Status Executor::State::EndDynamicRun() { return DeleteReleased(true); }

StatusOr<TensorData> Executor::ReadTensor(const std::string& name) const {
  const State& s = *state_;
  const Tensor* tensor = s.graph.FindTensor(name);
  if (tensor == nullptr) {
    return NotFoundError("ReadTensor: no tensor named '" + name +
                         "' in the graph as it runs (graph passes fuse some intermediates away, a Conv's output "
                         "followed by a Relu for one; Session::tensors() and `glpool run MODEL --list-tensors` "
                         "name the pooled ones)");
  }
  if (tensor->is_constant) return tensor->data;
  if (!s.ran) return InvalidArgumentError("ReadTensor('" + name + "'): no Run has finished yet");
  const std::string root = s.Root(name);
  auto location = s.locations.find(root);
  const bool pooled = location != s.locations.end() && location->second.pool_object >= 0;
  if (location == s.locations.end() || (pooled && !s.kept_roots.count(root))) {
    std::string when = "no task reads it";
    for (const PlacedTensor& placed : s.pooled) {
      if (placed.name == root) {
        const TaskInfo& last = s.task_infos[static_cast<size_t>(placed.last_task)];
        when = "its memory is reused after its last reader, task " + std::to_string(placed.last_task) + " (node " +
               last.node + ")";
      }
    }
    return RemovedError("tensor '" + name + "' was removed: " + when + ". Keep it to read it after Run: " +
                        "SessionOptions::keep (glpool run --keep " + name + ") or keep_all (--keep-all)");
  }
  if (location->second.borrowed != 0) {
    return InvalidArgumentError("ReadTensor('" + name + "'): the tensor lives in a GL object the app bound; read it "
                                "there");
  }
  GLPOOL_ASSIGN_OR_RETURN(std::vector<float> values, s.ReadTensor(root, name));
  return FromGpuValues(tensor->dtype, tensor->shape, values, name);
}

bool Executor::Pooled(const std::string& name) const {
  auto it = state_->locations.find(state_->Root(name));
  return it != state_->locations.end() && it->second.pool_object >= 0;
}

}  // namespace glpool
