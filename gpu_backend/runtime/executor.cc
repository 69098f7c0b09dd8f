#include "gpu_backend/runtime/executor.h"
#include "gpu_backend/graph/precision_sensitive.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <set>

#include "gpu_backend/compile/compile.h"
#include "gpu_backend/gl/gl_buffer.h"
#include "gpu_backend/gl/gl_call.h"
#include "gpu_backend/gl/gl_counters.h"
#include "gpu_backend/gl/gl_info.h"
#include "gpu_backend/gl/gl_shader.h"
#include "gpu_backend/gl/gl_texture.h"
#include "gpu_backend/gl/texture_transfer.h"
#include "gpu_backend/kernels/kernel.h"
#include "gpu_backend/kernels/kernel_check.h"
#include "gpu_backend/kernels/logical_index.h"
#include "gpu_backend/graph/passes/passes.h"
#include "gpu_backend/runtime/binding_limits.h"
#include "gpu_backend/runtime/cpu_fallback.h"
#include "gpu_backend/runtime/gpu_values.h"
#include "gpu_backend/runtime/layout_convert.h"
#include "gpu_backend/runtime/pool_plan.h"
#include "gpu_backend/runtime/tensor_spans.h"
#include "shaders/embedded_shaders.h"

namespace glpool {

namespace {

using gl::GlBuffer;
using gl::GlProgram;
using gl::GlTexture;

struct TaskRuntime {
  KernelPlan plan;
  std::vector<std::string> roots;       // inputs then outputs, alias-resolved
  std::vector<size_t> weight_buffers;   // indices into State::buffers
  const GlProgram* program = nullptr;
  const Node* cpu_node = nullptr;       // set when the CPU reference runs the node
};

uint64_t TexelBytes(bool half) { return half ? 8 : 16; }

gl::TextureFormat TextureFormatFor(bool half) { return half ? gl::TextureFormat::kRgba16F : gl::TextureFormat::kRgba32F; }

// GL buffers and textures need a nonzero size; a zero-size tensor (a split
// of width 0, an empty reshape) still gets one texel so it can be bound.
uint64_t FootprintBytes(const Phwc4Layout& layout, bool half) {
  return std::max<uint64_t>(static_cast<uint64_t>(layout.texels()), 1) * TexelBytes(half);
}


float MaxMagnitude(const std::vector<float>& values) {
  float largest = 0.0f;
  for (float v : values) {
    if (std::isfinite(v)) largest = std::max(largest, std::fabs(v));
  }
  return largest;
}

}  // namespace

struct Executor::State {
  Graph graph;
  ExecutorOptions options;
  gl::GlInfo info;
  gl::UniformWeightLimits uniform_weights;  // weights that fit go in uniform blocks
  CompiledGraph compiled;
  std::vector<TaskRuntime> tasks;
  std::vector<TaskInfo> task_infos;
  std::vector<GlBuffer> buffers;
  std::vector<GlTexture> textures;
  std::map<std::string, Location> locations;      // by root tensor name
  std::vector<PoolObject> pool;
  std::vector<PlacedTensor> pooled;
  std::shared_ptr<ProgramCache> programs;
  MemoryReport memory;
  PartitionReport partition;
  std::vector<double> task_ms;
  bool time_tasks = false;
  std::set<std::string> logit_roots;  // fp16: heads' logits kept in fp32

  std::string Root(const std::string& name) const {
    auto it = compiled.storage.find(name);
    return it == compiled.storage.end() ? name : it->second.root;
  }
  bool fp16() const { return options.precision == Precision::kFp16; }
  const Tensor& TensorNamed(const std::string& name) const { return *graph.FindTensor(name); }
  Phwc4Layout LayoutOfTensor(const std::string& name) const { return LayoutOf(TensorNamed(name).shape); }
  // Whether tensor `root` is stored as half: fp16 mode, a float tensor, and
  // not kept in fp32 by calibration or as a head's logits.
  bool StoresHalf(const std::string& root) const {
    const DataType dtype = TensorNamed(root).dtype;
    return fp16() && !IsIntegerOrBool(dtype) && !options.fp32_tensors.count(root);
  }

  bool FitsTexture(const Phwc4Layout& layout) const {
    return layout.texels() > 0 && static_cast<int64_t>(layout.w) <= info.max_texture_size &&
           layout.rows() * layout.slices() <= info.max_texture_size;
  }

  // The texture copy kernels through the shared ProgramCache.
  gl::ProgramSource Transfers() const {
    return [cache = programs](const std::string& name, const std::string& source) { return cache->Get(name, source); };
  }
  Status BuildTasks();
  void CountPartition(const TaskRuntime& task, const TaskInfo& info);
  Status PlanPool();
  Status PlanPoolObjects(const std::string& strategy);
  Status CheckMemoryBudget();
  Status CreateExternal(const std::string& root);
  Status UploadConstantsAndWeights();
  Status CompilePrograms();
  StatusOr<std::vector<TensorBinding>> Bindings(const TaskRuntime& task, std::vector<WeightBinding>* weights) const;
  Status BindTask(const TaskRuntime& task) const;
  // `as`: the tensor (the root or an alias of it) whose layout the values
  // have; empty means the root's own.
  Status WriteTensor(const std::string& root, const std::vector<float>& logical, const std::string& as = "");
  StatusOr<std::vector<float>> ReadTensor(const std::string& root, const std::string& as = "") const;
  Status RunCpuTask(const TaskRuntime& task);
};

Status Executor::State::BuildTasks() {
  GLPOOL_ASSIGN_OR_RETURN(info, gl::QueryGlInfo());
  GLPOOL_ASSIGN_OR_RETURN(uniform_weights, gl::QueryUniformWeightLimits());
  // Variadic nodes wider than this context binds become trees here, before
  // compile, so the partial results are tensors the planner places.
  GLPOOL_ASSIGN_OR_RETURN(const size_t width,
                          VariadicSplitWidth(info, options.objects, options.max_task_bindings));
  GLPOOL_RETURN_IF_ERROR(SplitWideVariadics(graph, width).status());
  GLPOOL_ASSIGN_OR_RETURN(compiled, CompileGraph(graph));
  KernelLimits limits;
  limits.max_invocations = static_cast<uint32_t>(info.max_work_group_invocations);
  limits.max_shared_memory = static_cast<uint32_t>(info.max_shared_memory_bytes);
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

// Plans the pool for `strategy` (no GL object is made here): the pooled
// tensors, the shared objects or the arena, and the memory report's plan
// figures. Called again, it starts over.
Status Executor::State::PlanPoolObjects(const std::string& strategy) {
  pool.clear();
  pooled.clear();
  memory = MemoryReport();
  memory.objects = ObjectKindName(options.objects);
  memory.precision = PrecisionName(options.precision);
  memory.strategy = options.strategy;
  std::vector<ByteRecord> byte_records;
  // Textures pool by format: an RGBA16F texture cannot hold an fp32 tensor.
  std::vector<Extent2DRecord> texture_records[2];  // [half]
  std::vector<size_t> byte_tensor, texture_tensor[2];  // record -> pooled index
  for (const auto& compiled_tensor : compiled.pooled) {
    PlacedTensor tensor;
    tensor.name = compiled_tensor.name;
    tensor.layout = compiled_tensor.layout;
    tensor.half = StoresHalf(tensor.name);
    tensor.bytes = FootprintBytes(tensor.layout, tensor.half);
    tensor.first_task = compiled_tensor.first_task;
    tensor.last_task = compiled_tensor.last_task;
    if (fp16() && !tensor.half) {
      ++(IsIntegerOrBool(TensorNamed(tensor.name).dtype) ? memory.fp32_integer_tensors
         : logit_roots.count(tensor.name)                  ? memory.fp32_logit_tensors
                                                           : memory.fp32_range_tensors);
    }
    const bool texture = options.objects == ObjectKind::kTextures && FitsTexture(tensor.layout);
    tensor.buffer_fallback = options.objects == ObjectKind::kTextures && !texture;
    if (texture) {
      texture_records[tensor.half].push_back({Phwc4Extent2D(tensor.layout), tensor.first_task, tensor.last_task});
      texture_tensor[tensor.half].push_back(pooled.size());
    } else {
      byte_records.push_back({tensor.bytes, tensor.first_task, tensor.last_task});
      byte_tensor.push_back(pooled.size());
    }
    memory.naive_bytes += tensor.bytes;
    if (tensor.buffer_fallback) ++memory.buffer_fallbacks;
    pooled.push_back(tensor);
  }
  memory.tensors = pooled.size();

  for (bool half : {true, false}) {
    if (texture_records[half].empty()) continue;
    GLPOOL_ASSIGN_OR_RETURN(ObjectPoolPlan plan, PlanTexturePool(texture_records[half], strategy));
    memory.chosen = plan.chosen;
    memory.lower_bound_bytes += plan.lower_bound * TexelBytes(half);
    const size_t base = pool.size();
    for (const Extent2D& extent : plan.object_extents) {
      PoolObject object;
      object.storage = StorageKind::kTexture2D;
      object.half = half;
      object.width = extent.w;
      object.height = extent.h;
      object.bytes = extent.w * extent.h * TexelBytes(half);
      pool.push_back(object);
    }
    for (size_t i = 0; i < texture_records[half].size(); ++i) {
      pooled[texture_tensor[half][i]].object = base + plan.object_of[i];
    }
  }
  if (!byte_records.empty() && options.objects == ObjectKind::kArena) {
    GLPOOL_ASSIGN_OR_RETURN(ArenaPlan plan, PlanArena(byte_records, strategy,
                                                      static_cast<uint64_t>(info.ssbo_offset_alignment),
                                                      options.budget_seconds));
    memory.chosen = plan.chosen;
    memory.lower_bound_bytes += plan.lower_bound;
    PoolObject arena;
    arena.bytes = plan.total_bytes;
    pool.push_back(arena);
    for (size_t i = 0; i < byte_records.size(); ++i) {
      pooled[byte_tensor[i]].object = pool.size() - 1;
      pooled[byte_tensor[i]].offset = plan.offsets[i];
    }
  } else if (!byte_records.empty()) {
    GLPOOL_ASSIGN_OR_RETURN(ObjectPoolPlan plan, PlanBufferPool(byte_records, strategy));
    if (memory.chosen.empty()) memory.chosen = plan.chosen;
    memory.lower_bound_bytes += plan.lower_bound;
    const size_t base = pool.size();
    for (uint64_t bytes : plan.object_bytes) {
      PoolObject object;
      object.bytes = bytes;
      pool.push_back(object);
    }
    for (size_t i = 0; i < byte_records.size(); ++i) pooled[byte_tensor[i]].object = base + plan.object_of[i];
  }

  for (const PoolObject& object : pool) memory.pool_bytes += object.bytes;
  memory.pool_objects = pool.size();
  return Status::Ok();
}

// ExecutorOptions::memory_budget_bytes: a strategy whose pool does not fit
// gives way to AUTO (the smallest verified plan); if that does not fit
// either, creation fails here, before any GL object is made.
Status Executor::State::CheckMemoryBudget() {
  const uint64_t budget = options.memory_budget_bytes;
  if (budget == 0 || memory.pool_bytes <= budget) return Status::Ok();
  const std::string first = memory.chosen + " (" + std::to_string(memory.pool_bytes) + " bytes)";
  if (options.strategy != "auto") {
    GLPOOL_RETURN_IF_ERROR(PlanPoolObjects("auto"));
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
  GLPOOL_RETURN_IF_ERROR(PlanPoolObjects(options.strategy));
  GLPOOL_RETURN_IF_ERROR(CheckMemoryBudget());

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

  // One GL object per shared object, created once.
  std::vector<size_t> gl_index(pool.size());
  for (size_t k = 0; k < pool.size(); ++k) {
    PoolObject& object = pool[k];
    if (object.storage == StorageKind::kTexture2D) {
      GLPOOL_ASSIGN_OR_RETURN(GlTexture texture,
                              GlTexture::Create2D(static_cast<uint32_t>(object.width), static_cast<uint32_t>(object.height),
                                                  TextureFormatFor(object.half)));
      memory.gl_pool_bytes += texture.bytes();
      gl_index[k] = textures.size();
      textures.push_back(std::move(texture));
    } else {
      if (object.bytes > static_cast<uint64_t>(info.max_ssbo_size) && options.objects != ObjectKind::kArena) {
        return OutOfMemoryError("a pooled buffer of " + std::to_string(object.bytes) +
                                " bytes exceeds the context's shader storage block limit of " +
                                std::to_string(info.max_ssbo_size));
      }
      GLPOOL_ASSIGN_OR_RETURN(GlBuffer buffer, GlBuffer::Create(object.bytes));
      memory.gl_pool_bytes += buffer.bytes();
      gl_index[k] = buffers.size();
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
    locations[tensor.name] = location;
  }
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

Status Executor::State::WriteTensor(const std::string& root, const std::vector<float>& logical,
                                    const std::string& as) {
  const Location& location = locations.at(root);
  const Phwc4Layout layout = LayoutOfTensor(as.empty() ? root : as);
  if (layout.texels() == 0) return Status::Ok();
  std::vector<float> texels = ToPhwc4(logical, layout);
  if (location.storage != StorageKind::kBuffer) {
    // A pooled texture may be larger than its tensor.
    return gl::UploadTextureRows(textures[location.gl_object], texels, layout.w,
                                 static_cast<uint64_t>(layout.rows() * layout.slices()), Transfers());
  }
  const GlBuffer& buffer = buffers[location.gl_object];
  if (StoresHalf(root)) {
    std::vector<uint32_t> packed = PackHalves(texels);
    return buffer.Write(location.offset, packed.data(), packed.size() * sizeof(uint32_t));
  }
  return buffer.Write(location.offset, texels.data(), texels.size() * sizeof(float));
}

StatusOr<std::vector<float>> Executor::State::ReadTensor(const std::string& root, const std::string& as) const {
  const Location& location = locations.at(root);
  const Phwc4Layout layout = LayoutOfTensor(as.empty() ? root : as);
  if (layout.texels() == 0) return std::vector<float>();
  std::vector<float> texels;
  if (location.storage != StorageKind::kBuffer) {
    GLPOOL_ASSIGN_OR_RETURN(std::vector<float> all, gl::DownloadTexture(textures[location.gl_object], Transfers()));
    // The tensor occupies the first W columns of the first rows*slices rows.
    const GlTexture& texture = textures[location.gl_object];
    texels.resize(static_cast<size_t>(layout.texels()) * 4);
    for (int64_t row = 0; row < layout.rows() * layout.slices(); ++row) {
      std::copy_n(all.begin() + static_cast<std::ptrdiff_t>(row * texture.width() * 4), layout.w * 4,
                  texels.begin() + static_cast<std::ptrdiff_t>(row * layout.w * 4));
    }
  } else if (StoresHalf(root)) {
    std::vector<uint32_t> packed(static_cast<size_t>(layout.texels()) * 2);
    GLPOOL_RETURN_IF_ERROR(buffers[location.gl_object].Read(location.offset, packed.data(), packed.size() * 4));
    texels = UnpackHalves(packed);
  } else {
    texels.resize(static_cast<size_t>(layout.texels()) * 4);
    GLPOOL_RETURN_IF_ERROR(buffers[location.gl_object].Read(location.offset, texels.data(), texels.size() * 4));
  }
  return FromPhwc4(texels, layout);
}

Status Executor::State::UploadConstantsAndWeights() {
  for (const auto& [root, location] : locations) {
    const Tensor& tensor = TensorNamed(root);
    if (!tensor.is_constant) continue;
    GLPOOL_ASSIGN_OR_RETURN(std::vector<float> values, ToGpuValues(tensor.data, root));
    GLPOOL_TRY_CONTEXT(WriteTensor(root, values), "uploading constant " + root);
  }
  for (TaskRuntime& task : tasks) {
    for (const KernelWeights& weights : task.plan.weights) {
      if (weights.values.empty() || weights.values.size() % 4 != 0) {
        return InternalError("kernel " + task.plan.shader + ": weights '" + weights.name +
                             "' must be a non-empty multiple of 4 floats");
      }
      GLPOOL_ASSIGN_OR_RETURN(GlBuffer buffer,
                              GlBuffer::CreateWithData(weights.values.data(), weights.values.size() * sizeof(float)));
      memory.external_bytes += buffer.bytes();
      task.weight_buffers.push_back(buffers.size());
      buffers.push_back(std::move(buffer));
    }
  }
  return Status::Ok();
}

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
    binding.binding = location.storage == StorageKind::kBuffer ? ssbo++ : image_unit++;
    bindings.push_back(binding);
  }
  uint32_t ubo = 0;
  for (const KernelWeights& w : task.plan.weights) {
    const uint64_t bytes = w.values.size() * sizeof(float);
    if (bytes <= uniform_weights.max_block_bytes && ubo < uniform_weights.max_blocks) {
      weights->push_back({w.name, ubo++, static_cast<uint32_t>(w.values.size() / 4)});
    } else {
      weights->push_back({w.name, ssbo++, 0});
    }
  }
  return bindings;
}

Status Executor::State::CompilePrograms() {
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
    GLPOOL_ASSIGN_OR_RETURN(task.program, programs->Get(name, assembled));
  }
  return Status::Ok();
}

Status Executor::State::BindTask(const TaskRuntime& task) const {
  std::vector<WeightBinding> weights;
  GLPOOL_ASSIGN_OR_RETURN(std::vector<TensorBinding> bindings, Bindings(task, &weights));
  const bool arena = options.objects == ObjectKind::kArena;
  std::vector<Span> bound;
  for (size_t i = 0; i < bindings.size(); ++i) {
    const Location& location = locations.at(task.roots[i]);
    const Span span = SpanOf(location, arena);
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
    if (location.borrowed != 0) {
      GLPOOL_GL_CALL(glBindBufferBase(GL_SHADER_STORAGE_BUFFER, bindings[i].binding, location.borrowed));
    } else if (location.storage == StorageKind::kBuffer) {
      const GlBuffer& buffer = buffers[location.gl_object];
      if (location.pool_object >= 0 && arena) {
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
    const GlBuffer& buffer = buffers[task.weight_buffers[w]];
    GLPOOL_RETURN_IF_ERROR(weights[w].uniform_vec4s > 0 ? buffer.BindUniformToIndex(weights[w].binding)
                                                        : buffer.BindToIndex(weights[w].binding));
  }
  return Status::Ok();
}

Status Executor::State::RunCpuTask(const TaskRuntime& task) {
  FallbackTransfers io;
  io.read = [this](const std::string& name) { return ReadTensor(Root(name), name); };
  io.write = [this](const std::string& name, const std::vector<float>& values) {
    return WriteTensor(Root(name), values, name);
  };
  return RunCpuFallbackNode(graph, *task.cpu_node, io);
}

Executor::Executor(std::unique_ptr<State> state) : state_(std::move(state)) {}
Executor::~Executor() = default;

StatusOr<std::unique_ptr<Executor>> Executor::Create(Graph graph, const ExecutorOptions& options) {
  auto state = std::make_unique<State>();
  state->graph = std::move(graph);
  state->options = options;
  state->programs = options.programs ? options.programs : std::make_shared<ProgramCache>();
  GLPOOL_RETURN_IF_ERROR(state->BuildTasks());
  if (state->fp16()) {
    // Heads' logits stay fp32 whatever the calibration (precision_sensitive.h).
    for (const std::string& name : PrecisionSensitiveTensors(state->graph)) {
      const std::string root = state->Root(name);
      if (state->options.fp32_tensors.insert(root).second) state->logit_roots.insert(root);
    }
  }
  GLPOOL_RETURN_IF_ERROR(state->PlanPool());
  gl::CountPoolPlan();
  GLPOOL_RETURN_IF_ERROR(state->UploadConstantsAndWeights());
  GLPOOL_RETURN_IF_ERROR(state->CompilePrograms());
  return std::unique_ptr<Executor>(new Executor(std::move(state)));
}

StatusOr<std::map<std::string, TensorData>> Executor::Run(const std::map<std::string, TensorData>& inputs) {
  return Run(inputs, GpuSideIo{});
}

StatusOr<std::map<std::string, TensorData>> Executor::Run(const std::map<std::string, TensorData>& inputs,
                                                          const GpuSideIo& gpu) {
  State& s = *state_;
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
  const bool arena = s.options.objects == ObjectKind::kArena;
  std::vector<Span> written, read;
  bool image_writes = false, buffer_writes = false;
  s.task_ms.clear();
  for (const TaskRuntime& task : s.tasks) {
    const auto start = std::chrono::steady_clock::now();
    bool needs_barrier = false;
    const size_t inputs_count = task.plan.inputs.size();
    for (size_t i = 0; i < task.roots.size(); ++i) {
      const Location& location = s.locations.at(task.roots[i]);
      const Span span = SpanOf(location, arena);
      if (AnyOverlap(written, span) || (i >= inputs_count && AnyOverlap(read, span))) needs_barrier = true;
    }
    if (needs_barrier) {
      GLbitfield bits = 0;
      if (image_writes) bits |= GL_SHADER_IMAGE_ACCESS_BARRIER_BIT;
      if (buffer_writes) bits |= GL_SHADER_STORAGE_BARRIER_BIT;
      if (bits == 0) bits = GL_SHADER_STORAGE_BARRIER_BIT | GL_SHADER_IMAGE_ACCESS_BARRIER_BIT;
      GLPOOL_GL_CALL(glMemoryBarrier(bits));
      written.clear();
      read.clear();
      image_writes = buffer_writes = false;
    }
    if (task.cpu_node != nullptr) {
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
    for (size_t i = 0; i < task.roots.size(); ++i) {
      const Location& location = s.locations.at(task.roots[i]);
      const Span span = SpanOf(location, arena);
      if (i >= inputs_count) {
        written.push_back(span);
        (span.storage_class == 0 ? buffer_writes : image_writes) = true;
      } else {
        read.push_back(span);
      }
    }
    if (s.time_tasks) {
      GLPOOL_GL_CALL(glFinish());
      s.task_ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
    }
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
  return outputs;
}

StatusOr<std::set<std::string>> FindHalfUnsafeTensors(const Graph& graph,
                                                      const std::map<std::string, TensorData>& inputs,
                                                      std::shared_ptr<ProgramCache> programs) {
  ExecutorOptions options;
  options.objects = ObjectKind::kBuffers;
  options.precision = Precision::kFp32;
  options.strategy = "naive";
  options.programs = std::move(programs);
  // Calibration measures every tensor, whatever runs it; whether the model
  // may use the fallback is decided when its own executor is created.
  options.cpu_fallback = true;
  GLPOOL_ASSIGN_OR_RETURN(std::unique_ptr<Executor> probe, Executor::Create(graph, options));
  GLPOOL_TRY_CONTEXT(probe->Run(inputs).status(), "fp16 calibration run");
  const Executor::State& run = *probe->state_;
  std::set<std::string> unsafe;
  for (const auto& [root, location] : run.locations) {
    const Tensor& tensor = run.TensorNamed(root);
    if (tensor.is_constant || IsIntegerOrBool(tensor.dtype)) continue;
    GLPOOL_ASSIGN_OR_RETURN(std::vector<float> values, run.ReadTensor(root));
    const float largest = MaxMagnitude(values);
    if (largest != 0.0f && (largest < kHalfSafeMin || largest > kHalfSafeMax)) unsafe.insert(root);
  }
  return unsafe;
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
  state_->locations.at(state_->Root(name)).borrowed = buffer;
  return Status::Ok();
}

const MemoryReport& Executor::memory() const { return state_->memory; }
const std::vector<PoolObject>& Executor::objects() const { return state_->pool; }
const std::vector<PlacedTensor>& Executor::tensors() const { return state_->pooled; }
const std::vector<TaskInfo>& Executor::tasks() const { return state_->task_infos; }
const PartitionReport& Executor::partition() const { return state_->partition; }
const std::vector<double>& Executor::task_ms() const { return state_->task_ms; }
void Executor::set_time_tasks(bool on) { state_->time_tasks = on; }

}  // namespace glpool
