// Compile: Graph -> ordered tasks (the future shader dispatches) and the
// storage every tensor uses, from which usage_records.h derives what the
// planner consumes.
//
// - One task per node, in graph order, except aliasing reshapes (graph.h,
//   kAliasAttr) which cost nothing: their output shares the storage of
//   their input ("storage root": follow aliases back to a tensor a task
//   writes, a graph input, or a constant); and in-place Concats
//   (kInPlaceConcatAttr), whose inputs are windows of their output's
//   storage at a slice offset.
// - Storage classes: kConstant (weights, uploaded once, not pooled),
//   kExternal (graph inputs and outputs, owned by the user; a root any of
//   whose aliases is a graph input/output is external too), kPooled (the
//   intermediates the planner packs into shared objects or the arena).
// - CompileOptions may pool graph inputs and outputs too, and keep roots
//   alive to the end of the run.
// - A pooled root lives from the first to the last task that reads or
//   writes it or any alias of it, inclusive: so an aliasing reshape extends
//   its source's lifetime rather than getting a record.
// Compile never rejects an op: what runs where is the kernels' business.
#pragma once

#include <map>
#include <set>
#include <string>
#include <vector>

#include "common/status.h"
#include "gpu_backend/graph/graph.h"
#include "gpu_backend/graph/phwc4_layout.h"
#include "planner/usage_record.h"

namespace glpool {

struct Task {
  std::string node;     // the node's name
  std::string op_type;
  std::vector<std::string> inputs;   // the node's non-constant inputs, tensor names
  std::vector<std::string> outputs;  // the node's outputs ("" dropped)
};

enum class StorageClass { kConstant, kExternal, kPooled };
const char* StorageClassName(StorageClass storage);

struct TensorStorage {
  std::string root;  // the tensor whose storage this one uses (itself if none)
  StorageClass storage = StorageClass::kPooled;
  // A window of the root (an in-place Concat's input): its slice 0 is the
  // root's slice `slice_offset` (same N, H, W); 0 for the root and aliases.
  int64_t slice_offset = 0;
};

// A pooled storage root and its lifetime in tasks.
struct PooledTensor {
  std::string name;
  Shape shape;
  Phwc4Layout layout;
  TaskId first_task = 0;
  TaskId last_task = 0;
};

struct CompiledGraph {
  std::vector<Task> tasks;
  std::map<std::string, TensorStorage> storage;  // every tensor of the graph
  std::vector<PooledTensor> pooled;              // ordered by first_task, then name
};

// Which graph inputs and outputs join the pool, and which intermediates
// outlive their last reader (SessionOptions' memory options).
struct CompileOptions {
  // Graph inputs become pooled: live from task 0 (they are uploaded before
  // it) to their last reader.
  bool inputs_in_pool = false;
  // Graph outputs (not also inputs) become pooled, live to the last task:
  // they are read back after the run.
  bool outputs_in_pool = false;
  // Pooled roots (or tensors whose root is pooled) live to the last task.
  std::set<std::string> keep;
  bool keep_all = false;
};

// Fails (kInvalidModel) only on a graph that breaks the IR's invariants:
// an undefined tensor, a tensor read before it is written.
StatusOr<CompiledGraph> CompileGraph(const Graph& graph, const CompileOptions& options = {});

}  // namespace glpool
