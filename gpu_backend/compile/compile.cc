#include "gpu_backend/compile/compile.h"

#include <algorithm>
#include <set>

namespace glpool {

const char* StorageClassName(StorageClass storage) {
  switch (storage) {
    case StorageClass::kConstant: return "constant";
    case StorageClass::kExternal: return "external";
    case StorageClass::kPooled: return "pooled";
  }
  return "unknown";
}

namespace {

bool IsAlias(const Node& node) {
  return node.GetInt(kAliasAttr, 0) != 0 && !node.inputs.empty() && node.outputs.size() == 1;
}

bool IsInPlaceConcat(const Node& node) {
  return node.GetInt(kInPlaceConcatAttr, 0) != 0 && node.op_type == "Concat" && node.outputs.size() == 1;
}

// Assigns every tensor its storage root and class.
Status AssignStorage(const Graph& graph, const CompileOptions& options, CompiledGraph* compiled) {
  for (const auto& [name, tensor] : graph.tensors) {
    compiled->storage[name] = {name, tensor.is_constant ? StorageClass::kConstant : StorageClass::kPooled};
  }
  // Windows first: an alias of a window (or of a Concat's output) then
  // copies the resolved storage.
  for (const Node& node : graph.nodes) {
    if (!IsInPlaceConcat(node)) continue;
    int64_t offset = 0;
    for (const std::string& in : node.inputs) {
      const Tensor* tensor = graph.FindTensor(in);
      auto storage = compiled->storage.find(in);
      if (tensor == nullptr || storage == compiled->storage.end() || tensor->shape.size() < 2) {
        return InvalidModelError("in-place Concat '" + node.name + "' reads an undefined or flat tensor '" + in + "'");
      }
      storage->second.root = node.outputs[0];
      storage->second.slice_offset = offset;
      offset += (tensor->shape[1] + 3) / 4;
    }
  }
  for (const Node& node : graph.nodes) {
    if (!IsAlias(node)) continue;
    auto in = compiled->storage.find(node.inputs[0]);
    auto out = compiled->storage.find(node.outputs[0]);
    if (in == compiled->storage.end() || out == compiled->storage.end()) {
      return InvalidModelError("node '" + node.name + "' refers to an undefined tensor");
    }
    out->second = in->second;  // topological order: the input's root is final
  }
  std::set<std::string> input_roots, output_roots, external_roots;
  for (const std::string& name : graph.inputs) input_roots.insert(compiled->storage[name].root);
  for (const std::string& name : graph.outputs) output_roots.insert(compiled->storage[name].root);
  // A root that is both an input and an output (an output aliasing an
  // input) stays external either way: the caller's object holds it.
  for (const std::string& root : input_roots) {
    if (!options.inputs_in_pool || output_roots.count(root)) external_roots.insert(root);
  }
  for (const std::string& root : output_roots) {
    if (!options.outputs_in_pool || input_roots.count(root)) external_roots.insert(root);
  }
  for (auto& [name, storage] : compiled->storage) {
    if (storage.storage == StorageClass::kPooled && external_roots.count(storage.root)) {
      storage.storage = StorageClass::kExternal;
    }
  }
  return Status::Ok();
}

}  // namespace

StatusOr<CompiledGraph> CompileGraph(const Graph& graph, const CompileOptions& options) {
  CompiledGraph compiled;
  GLPOOL_RETURN_IF_ERROR(AssignStorage(graph, options, &compiled));
  // Pooled graph inputs are written by the upload before task 0.
  std::set<std::string> uploaded;
  for (const std::string& name : graph.inputs) uploaded.insert(compiled.storage[name].root);
  std::map<std::string, PooledTensor> pooled;
  auto touch = [&](const std::string& name, TaskId task, bool writes) -> Status {
    auto it = compiled.storage.find(name);
    if (it == compiled.storage.end()) return InvalidModelError("tensor '" + name + "' is undefined");
    if (it->second.storage != StorageClass::kPooled) return Status::Ok();
    const std::string& root = it->second.root;
    auto [entry, inserted] = pooled.try_emplace(root);
    if (inserted) {
      if (!writes && !uploaded.count(root)) {
        return InvalidModelError("tensor '" + name + "' is read before any task writes it");
      }
      entry->second.name = root;
      entry->second.shape = graph.FindTensor(root)->shape;
      entry->second.layout = LayoutOf(entry->second.shape);
      entry->second.first_task = uploaded.count(root) ? 0 : task;
    }
    entry->second.last_task = std::max(entry->second.last_task, task);
    return Status::Ok();
  };
  for (const Node& node : graph.nodes) {
    const TaskId task = static_cast<TaskId>(compiled.tasks.size());
    if (IsAlias(node) || IsInPlaceConcat(node)) {
      // No dispatch; the alias is live wherever its readers are. Its
      // source is already live (written earlier), so nothing to record;
      // an in-place Concat's windows were written into its output.
      continue;
    }
    Task t{node.name, node.op_type, {}, {}};
    for (const std::string& in : node.inputs) {
      if (in.empty()) continue;
      auto it = compiled.storage.find(in);
      if (it == compiled.storage.end()) return InvalidModelError("node '" + node.name + "' reads undefined tensor '" + in + "'");
      if (it->second.storage == StorageClass::kConstant) continue;
      t.inputs.push_back(in);
      GLPOOL_RETURN_IF_ERROR(touch(in, task, false));
    }
    for (const std::string& out : node.outputs) {
      if (out.empty()) continue;
      t.outputs.push_back(out);
      GLPOOL_RETURN_IF_ERROR(touch(out, task, true));
    }
    compiled.tasks.push_back(std::move(t));
  }
  // Kept roots and pooled outputs live to the end of the run.
  const TaskId end = compiled.tasks.empty() ? 0 : static_cast<TaskId>(compiled.tasks.size() - 1);
  std::set<std::string> to_end;
  for (const std::string& name : options.keep) {
    auto it = compiled.storage.find(name);
    if (it != compiled.storage.end()) to_end.insert(it->second.root);
  }
  for (const std::string& name : graph.outputs) to_end.insert(compiled.storage[name].root);
  for (auto& [name, tensor] : pooled) {
    if (options.keep_all || to_end.count(name)) tensor.last_task = end;
    compiled.pooled.push_back(std::move(tensor));
  }
  std::stable_sort(compiled.pooled.begin(), compiled.pooled.end(), [](const PooledTensor& a, const PooledTensor& b) {
    return a.first_task < b.first_task;
  });
  return compiled;
}

}  // namespace glpool
