// The executor's pool: the plan of the memory mode's strategy (checked
// against the memory budget), the GL objects of the pool and the external
// objects of graph inputs, outputs and constants.
#include <algorithm>
#include <set>

#include "gpu_backend/runtime/executor_state.h"
#include "gpu_backend/runtime/pool_plan.h"

namespace glpool {

using gl::GlBuffer;
using gl::GlTexture;

std::string Executor::State::ModeStrategy(const NamedPool& spec) const {
  switch (options.memory_mode) {
    case MemoryMode::kPooled: return spec.strategy;
    case MemoryMode::kNaive:
    case MemoryMode::kDynamic: return "naive";
    case MemoryMode::kReuse: return "equality";
  }
  return spec.strategy;
}

namespace {

// A planning unit's storage class within its pool.
// Planned in this order within a pool, so its objects list textures first.
enum UnitStorage { kUnitTexturesHalf = 0, kUnitTexturesFp32 = 1, kUnitBytes = 2 };

std::string UnitStorageName(UnitStorage storage, ObjectKind objects) {
  if (storage == kUnitTexturesFp32) return "rgba32f textures";
  if (storage == kUnitTexturesHalf) return "rgba16f textures";
  if (objects == ObjectKind::kArena) return "arena";
  return objects == ObjectKind::kTextures ? "buffers (too large for a texture)" : "buffers";
}

}  // namespace

// Plans every pool (no GL object is made here): the pooled tensors, each
// unit's shared objects or arena, and the memory report's plan figures.
// Each (pool, storage class) unit is planned on its own: tensors of two
// pools never share an object, nor do an RGBA16F and an RGBA32F tensor.
// Called again, it starts over.
Status Executor::State::PlanPoolObjects(bool all_auto) {
  pool.clear();
  pooled.clear();
  memory = MemoryReport();
  memory.objects = ObjectKindName(options.objects);
  memory.precision = PrecisionName(options.precision);
  memory.strategy = ModeStrategy(pool_specs[0]);
  memory.memory_mode = MemoryModeName(options.memory_mode);
  std::map<std::pair<size_t, int>, std::vector<size_t>> units;  // (pool spec, UnitStorage) -> pooled indices
  // Outputs by storage root: an output may alias (Reshape, Flatten) the
  // pooled tensor that holds it.
  std::set<std::string> output_roots;
  for (const std::string& name : graph.outputs) output_roots.insert(Root(name));
  for (const auto& compiled_tensor : compiled.pooled) {
    PlacedTensor tensor;
    tensor.name = compiled_tensor.name;
    tensor.layout = compiled_tensor.layout;
    tensor.half = StoresHalf(tensor.name);
    tensor.bytes = FootprintBytes(tensor.layout, tensor.half);
    tensor.first_task = compiled_tensor.first_task;
    tensor.last_task = compiled_tensor.last_task;
    if (fp16() && !tensor.half) {
      ++(IsIntegerOrBool(TensorNamed(tensor.name).dtype)      ? memory.fp32_integer_tensors
         : logit_roots.count(tensor.name)                       ? memory.fp32_logit_tensors
         : options.fp32_accuracy_tensors.count(tensor.name) > 0 ? memory.fp32_accuracy_tensors
                                                                : memory.fp32_range_tensors);
    }
    const NamedPool& spec = SpecOf(tensor.name);
    const bool texture = spec.objects == ObjectKind::kTextures && FitsTexture(tensor.layout);
    tensor.buffer_fallback = spec.objects == ObjectKind::kTextures && !texture;
    const int storage = !texture ? kUnitBytes : tensor.half ? kUnitTexturesHalf : kUnitTexturesFp32;
    units[{pool_of.count(tensor.name) ? pool_of.at(tensor.name) : 0, storage}].push_back(pooled.size());
    memory.naive_bytes += tensor.bytes;
    if (tensor.buffer_fallback) ++memory.buffer_fallbacks;
    if (std::find(graph.inputs.begin(), graph.inputs.end(), tensor.name) != graph.inputs.end()) {
      ++memory.pooled_inputs;
    } else if (output_roots.count(tensor.name)) {
      ++memory.pooled_outputs;
    } else if (kept_roots.count(tensor.name)) {
      ++memory.kept_tensors;
    }
    pooled.push_back(tensor);
  }
  memory.tensors = pooled.size();

  for (const auto& [key, members] : units) {
    const NamedPool& spec = pool_specs[key.first];
    const auto storage = static_cast<UnitStorage>(key.second);
    PoolSummary summary;
    summary.name = spec.name;
    summary.storage = UnitStorageName(storage, spec.objects);
    summary.strategy = all_auto ? "auto" : ModeStrategy(spec);
    summary.tensors = members.size();
    const size_t unit = memory.pools.size();
    const size_t base = pool.size();
    if (storage != kUnitBytes) {
      const bool half = storage == kUnitTexturesHalf;
      std::vector<Extent2DRecord> records;
      for (size_t i : members) records.push_back({Phwc4Extent2D(pooled[i].layout), pooled[i].first_task, pooled[i].last_task});
      GLPOOL_ASSIGN_OR_RETURN(ObjectPoolPlan plan, PlanTexturePool(records, summary.strategy));
      summary.chosen = plan.chosen;
      summary.lower_bound_bytes = plan.lower_bound * TexelBytes(half);
      for (const Extent2D& extent : plan.object_extents) {
        PoolObject object;
        object.storage = StorageKind::kTexture2D;
        object.half = half;
        object.width = extent.w;
        object.height = extent.h;
        object.bytes = extent.w * extent.h * TexelBytes(half);
        pool.push_back(object);
      }
      for (size_t r = 0; r < members.size(); ++r) pooled[members[r]].object = base + plan.object_of[r];
    } else {
      std::vector<ByteRecord> records;
      for (size_t i : members) records.push_back({pooled[i].bytes, pooled[i].first_task, pooled[i].last_task});
      if (spec.objects == ObjectKind::kArena) {
        GLPOOL_ASSIGN_OR_RETURN(ArenaPlan plan, PlanArena(records, summary.strategy,
                                                          static_cast<uint64_t>(info.ssbo_offset_alignment),
                                                          options.budget_seconds));
        summary.chosen = plan.chosen;
        summary.lower_bound_bytes = plan.lower_bound;
        PoolObject arena;
        arena.bytes = plan.total_bytes;
        arena.arena = true;
        pool.push_back(arena);
        for (size_t r = 0; r < members.size(); ++r) {
          pooled[members[r]].object = base;
          pooled[members[r]].offset = plan.offsets[r];
        }
      } else {
        GLPOOL_ASSIGN_OR_RETURN(ObjectPoolPlan plan, PlanBufferPool(records, summary.strategy));
        summary.chosen = plan.chosen;
        summary.lower_bound_bytes = plan.lower_bound;
        for (uint64_t bytes : plan.object_bytes) {
          PoolObject object;
          object.bytes = bytes;
          pool.push_back(object);
        }
        for (size_t r = 0; r < members.size(); ++r) pooled[members[r]].object = base + plan.object_of[r];
      }
    }
    for (size_t k = base; k < pool.size(); ++k) {
      pool[k].pool = unit;
      summary.pool_bytes += pool[k].bytes;
    }
    for (size_t i : members) {
      pooled[i].pool = unit;
      summary.naive_bytes += pooled[i].bytes;
    }
    summary.objects = pool.size() - base;
    if (memory.chosen.empty()) memory.chosen = summary.chosen;
    memory.lower_bound_bytes += summary.lower_bound_bytes;
    memory.pools.push_back(std::move(summary));
  }

  for (const PoolObject& object : pool) memory.pool_bytes += object.bytes;
  memory.pool_objects = pool.size();
  return Status::Ok();
}

namespace {

// The most bytes of `tensors` live at one task: what dynamic mode holds at
// its peak if every release took effect at once.
uint64_t PeakLiveBytes(const std::vector<PlacedTensor>& tensors) {
  std::map<int64_t, int64_t> delta;
  for (const PlacedTensor& t : tensors) {
    delta[t.first_task] += static_cast<int64_t>(t.bytes);
    delta[t.last_task + 1] -= static_cast<int64_t>(t.bytes);
  }
  int64_t live = 0, peak = 0;
  for (const auto& [task, change] : delta) peak = std::max(peak, live += change);
  return static_cast<uint64_t>(peak);
}

}  // namespace

// ExecutorOptions::memory_budget_bytes: a strategy whose pool does not fit
// gives way to AUTO (the smallest verified plan); if that does not fit
// either, creation fails here, before any GL object is made. Dynamic mode
// is judged by its peak of live bytes, not by the sum of its objects.
Status Executor::State::CheckMemoryBudget() {
  const uint64_t budget = options.memory_budget_bytes;
  if (budget == 0) return Status::Ok();
  if (is_dynamic()) {
    const uint64_t peak = PeakLiveBytes(pooled);
    if (peak <= budget) return Status::Ok();
    return OutOfMemoryError("dynamic memory mode holds up to " + std::to_string(peak) +
                            " bytes of intermediates at once, more than the memory budget of " +
                            std::to_string(budget) + " bytes. Nothing was allocated. Raise the budget");
  }
  if (memory.pool_bytes <= budget) return Status::Ok();
  const std::string first = memory.chosen + " (" + std::to_string(memory.pool_bytes) + " bytes)";
  if (memory.strategy != "auto" || pool_specs.size() > 1) {
    GLPOOL_RETURN_IF_ERROR(PlanPoolObjects(true));
    if (memory.pool_bytes <= budget) {
      memory.chosen += " (auto: " + first + " is over the memory budget)";
      return Status::Ok();
    }
  }
  return OutOfMemoryError("the pool of intermediates needs " + std::to_string(memory.pool_bytes) + " bytes (" +
                          std::string(ObjectKindName(options.objects)) + ", " + PrecisionName(options.precision) +
                          ", best plan " + memory.chosen + "), more than the memory budget of " +
                          std::to_string(budget) + " bytes; no plan of these tensors needs less than " +
                          std::to_string(memory.lower_bound_bytes) +
                          " bytes (the lower bound). Nothing was allocated. Raise the budget, or try fp16 "
                          "precision or the memory node order");
}

Status Executor::State::PlanPool() {
  const bool any_arena = std::any_of(pool_specs.begin(), pool_specs.end(),
                                     [](const NamedPool& spec) { return spec.objects == ObjectKind::kArena; });
  if (is_dynamic() && any_arena) {
    return InvalidArgumentError(
        "the dynamic memory mode makes one GL object per tensor during each run; the arena is a single object "
        "planned once. Use buffers or textures with dynamic, or another memory mode with the arena");
  }
  auto step = std::chrono::steady_clock::now();
  GLPOOL_RETURN_IF_ERROR(PlanPoolObjects(false));
  GLPOOL_RETURN_IF_ERROR(CheckMemoryBudget());
  startup.plan_ms = MsSince(step);
  step = std::chrono::steady_clock::now();

  // Everything a kernel binds that the planner does not pool gets its own
  // external object: graph inputs and outputs, and constants read as tensors.
  std::set<std::string> pooled_roots;
  for (const auto& tensor : compiled.pooled) pooled_roots.insert(tensor.name);
  for (const TaskRuntime& task : tasks) {
    for (const std::string& root : task.roots) {
      if (!pooled_roots.count(root) && !locations.count(root)) GLPOOL_RETURN_IF_ERROR(CreateExternal(root));
    }
  }
  for (const std::string& name : graph.outputs) {
    const std::string root = Root(name);
    if (!pooled_roots.count(root) && !locations.count(root) && !TensorNamed(root).is_constant &&
        std::find(graph.inputs.begin(), graph.inputs.end(), root) == graph.inputs.end()) {
      GLPOOL_RETURN_IF_ERROR(CreateExternal(root));
    }
  }
  GLPOOL_RETURN_IF_ERROR(MakePoolObjects());
  startup.objects_ms = MsSince(step);
  return Status::Ok();
}

// One GL object per shared object, made here once; in dynamic mode only
// empty slots, filled during each run (executor_dynamic.cc).
Status Executor::State::MakePoolObjects() {
  std::vector<size_t> gl_index(pool.size());
  for (size_t k = 0; k < pool.size(); ++k) {
    PoolObject& object = pool[k];
    if (object.storage == StorageKind::kTexture2D) {
      gl_index[k] = textures.size();
      if (is_dynamic()) {
        textures.emplace_back();
        continue;
      }
      GLPOOL_ASSIGN_OR_RETURN(GlTexture texture,
                              GlTexture::Create2D(static_cast<uint32_t>(object.width), static_cast<uint32_t>(object.height),
                                                  TextureFormatFor(object.half)));
      memory.gl_pool_bytes += texture.bytes();
      textures.push_back(std::move(texture));
    } else {
      if (object.bytes > static_cast<uint64_t>(info.max_ssbo_size) && !object.arena) {
        return OutOfMemoryError("a pooled buffer of " + std::to_string(object.bytes) +
                                " bytes exceeds the context's shader storage block limit of " +
                                std::to_string(info.max_ssbo_size));
      }
      gl_index[k] = buffers.size();
      if (is_dynamic()) {
        buffers.emplace_back();
        continue;
      }
      GLPOOL_ASSIGN_OR_RETURN(GlBuffer buffer, GlBuffer::Create(object.bytes));
      memory.gl_pool_bytes += buffer.bytes();
      buffers.push_back(std::move(buffer));
    }
  }
  for (size_t i = 0; i < pooled.size(); ++i) {
    PlacedTensor& tensor = pooled[i];
    pool[tensor.object].tensors.push_back(i);
    Location location;
    location.storage = pool[tensor.object].storage;
    location.gl_object = gl_index[tensor.object];
    location.offset = tensor.offset;
    location.size = tensor.bytes;
    location.pool_object = static_cast<int>(tensor.object);
    location.arena = pool[tensor.object].arena;
    locations[tensor.name] = location;
  }
  if (is_dynamic()) PrepareDynamic();
  return Status::Ok();
}

Status Executor::State::CreateExternal(const std::string& root) {
  const Phwc4Layout layout = LayoutOfTensor(root);
  const bool half = StoresHalf(root);
  Location location;
  if (options.objects == ObjectKind::kTextures && FitsTexture(layout)) {
    GLPOOL_ASSIGN_OR_RETURN(GlTexture texture,
                            GlTexture::Create2D(static_cast<uint32_t>(layout.w),
                                                static_cast<uint32_t>(layout.rows() * layout.slices()),
                                                TextureFormatFor(half)));
    memory.external_bytes += texture.bytes();
    location.storage = StorageKind::kTexture2D;
    location.gl_object = textures.size();
    textures.push_back(std::move(texture));
  } else {
    const uint64_t bytes = FootprintBytes(layout, half);
    GLPOOL_ASSIGN_OR_RETURN(GlBuffer buffer, GlBuffer::Create(bytes));
    memory.external_bytes += bytes;
    location.storage = StorageKind::kBuffer;
    location.gl_object = buffers.size();
    location.size = bytes;
    buffers.push_back(std::move(buffer));
  }
  locations[root] = location;
  return Status::Ok();
}

Status Executor::State::MakeInputViews() {
  input_views.clear();
  if (buffer_reads_as_ssbo || texture_buffer_directive.empty()) return Status::Ok();
  for (const TaskRuntime& task : tasks) {
    if (task.cpu_node != nullptr) continue;
    for (size_t i = 0; i < task.plan.inputs.size(); ++i) {
      const std::string& root = task.roots[i];
      const Location& location = locations.at(root);
      // External buffers (graph inputs, constants) too: a caller's buffer
      // that replaces one (BorrowBuffer) gets a view of its own there.
      if (location.storage != StorageKind::kBuffer || input_views.count(root)) continue;
      const bool half = StoresHalf(root);
      const uint64_t texel_bytes = half ? 8 : 16;
      const uint64_t offset = location.arena ? location.offset : 0;
      const bool made_per_run = is_dynamic() && location.pool_object >= 0;
      const uint64_t bytes = location.arena   ? location.size
                             : made_per_run ? pool[static_cast<size_t>(location.pool_object)].bytes
                             : location.pool_object >= 0
                                 ? buffers[location.gl_object].bytes()
                                 : static_cast<uint64_t>(LayoutOfTensor(root).texels()) * texel_bytes;
      const bool aligned = info.texture_buffer_offset_alignment > 0 &&
                           offset % static_cast<uint64_t>(info.texture_buffer_offset_alignment) == 0;
      const uint64_t buffer_bytes = made_per_run ? bytes : buffers[location.gl_object].bytes();
      if (!aligned || bytes == 0 || bytes % texel_bytes != 0 || offset + bytes > buffer_bytes ||
          bytes / texel_bytes > static_cast<uint64_t>(info.max_texture_buffer_texels)) {
        continue;
      }
      if (made_per_run) {
        // Dynamic mode makes the buffer every run, and its view with it
        // (MakeDynamicObjects); for now an empty view says it will have one.
        input_views.emplace(root, gl::GlBufferTexture());
        continue;
      }
      GLPOOL_ASSIGN_OR_RETURN(gl::GlBufferTexture view,
                              gl::GlBufferTexture::View(buffers[location.gl_object].id(), offset, bytes, half));
      input_views.emplace(root, std::move(view));
    }
  }
  return Status::Ok();
}

}  // namespace glpool
