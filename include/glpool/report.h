// What a Session reports about its pool: totals, the shared objects, where
// each intermediate tensor was placed, and the tasks in execution order.
// Everything the overlay draws comes from here.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "glpool/layout.h"

namespace glpool {

// One shared object of the pool (or the single arena).
struct PoolObject {
  StorageKind storage = StorageKind::kBuffer;
  size_t pool = 0;                 // index into MemoryReport::pools
  bool arena = false;              // an arena: tensors at planned offsets
  bool half = false;               // textures: RGBA16F (else RGBA32F)
  uint64_t bytes = 0;
  uint64_t width = 0, height = 0;  // textures
  std::vector<size_t> tensors;     // indices into Session::tensors()
};

// One pooled (intermediate) tensor, its lifetime in tasks (inclusive), and
// where the plan put it.
struct PlacedTensor {
  std::string name;
  Phwc4Layout layout;
  uint64_t bytes = 0;              // its own footprint (at least one texel)
  bool half = false;               // stored as half precision
  int64_t first_task = 0, last_task = 0;
  size_t object = 0;               // index into Session::objects()
  uint64_t offset = 0;             // in the arena; 0 otherwise
  bool buffer_fallback = false;    // textures mode: too large for a texture
  size_t pool = 0;                 // index into MemoryReport::pools
};

// One planning unit: a named pool (or the default pool) and one storage
// class within it, planned on its own. A textures pool is one unit per
// texture format (RGBA16F and RGBA32F cannot share an object) plus one for
// tensors too large for a texture, in buffers.
struct PoolSummary {
  std::string name;      // "default", or the NamedPool's name
  std::string storage;   // "rgba32f textures", "rgba16f textures", "buffers", "arena"
  std::string strategy, chosen;
  size_t tensors = 0;
  size_t objects = 0;
  uint64_t naive_bytes = 0;
  uint64_t pool_bytes = 0;
  uint64_t lower_bound_bytes = 0;
};

struct MemoryReport {
  std::string objects, precision, strategy, chosen;
  size_t tensors = 0;
  size_t pool_objects = 0;
  size_t buffer_fallbacks = 0;     // textures mode: tensors in the fallback buffer pool
  // fp16 mode: pooled tensors stored in fp32 anyway, because they hold
  // integers or bools (exact whole numbers need float32), because
  // calibration found their range outside half's, or because they are the
  // logits a head's Sigmoid/Softmax squashes (whose absolute precision half
  // cannot keep near their peaks).
  size_t fp32_integer_tensors = 0;
  size_t fp32_range_tensors = 0;
  // ... or because calibration keeps them so that the outputs stay within
  // SessionOptions::fp16_tolerance of fp32 (the network's first nodes).
  size_t fp32_accuracy_tensors = 0;
  size_t fp32_logit_tensors = 0;
  uint64_t naive_bytes = 0;        // one object per pooled tensor
  uint64_t pool_bytes = 0;         // what the plan asks for
  uint64_t lower_bound_bytes = 0;
  uint64_t gl_pool_bytes = 0;      // what the GL objects of the pool really hold
  uint64_t external_bytes = 0;     // inputs, outputs, constants, weights
  // SessionOptions::memory_mode ("pooled", "naive", "reuse", "dynamic").
  std::string memory_mode;
  // The most GL bytes of pooled tensors live at once in the last Run, as
  // the executor counted them (0 before a Run): in every mode but dynamic,
  // gl_pool_bytes; in dynamic, the peak of objects made and not yet
  // deleted (an object counts until the fence after its last task passes).
  uint64_t peak_live_bytes = 0;
  // Dynamic: the live bytes after each task of the last Run (the overlay's
  // curve), and the GL objects each Run makes and deletes.
  std::vector<uint64_t> live_bytes_after_task;
  uint64_t objects_made_per_run = 0;
  size_t pooled_inputs = 0;   // graph inputs in the pool (inputs_in_pool)
  size_t pooled_outputs = 0;  // graph outputs in the pool (outputs_in_pool)
  size_t kept_tensors = 0;    // intermediates readable after Run
  std::vector<PoolSummary> pools;  // each planning unit; the totals above sum them
};

// Where the time before the first Run went, for the current input shape
// (milliseconds of wall time; 0 for steps that did not happen). The
// executor's steps run on the GPU backend only.
struct StartupReport {
  double import_ms = 0;       // the model at this shape: import, shapes, graph passes
  double order_ms = 0;        // NodeOrder::kMemory's search
  double calibration_ms = 0;  // fp16: the fp32 run and the fp16 probes (SessionOptions::fp16_tolerance)
  uint64_t calibration_runs = 0;   // fp16 probe runs the accuracy search made
  double fp16_half_error = 0;      // fp16: outputs' error, all half (calibration inputs; see fp16_tolerance)
  double fp16_error = 0;           // ... with the tensors calibration keeps in fp32
  double tasks_ms = 0;        // kernel plans per node (and CPU-fallback checks)
  double plan_ms = 0;         // the pool's plan (every strategy AUTO tries), verified
  double objects_ms = 0;      // the pool's GL objects and the external ones
  double upload_ms = 0;       // constants and weights to the GPU
  double programs_ms = 0;     // shaders compiled or program binaries loaded
  // One work group of every program dispatched once: a driver that makes a
  // program's machine code at its first dispatch (llvmpipe: from Mesa's
  // shader cache, or by JIT when cold) does it here, not in the first Run.
  double warm_ms = 0;
  uint64_t shaders_compiled = 0;
  uint64_t programs_loaded = 0;  // from the program cache directory
  bool cpu_spin = false;         // runs spin the CPUs (SessionOptions::cpu_spin)
};

// What a Run has done so far (SessionOptions::progress).
struct RunProgress {
  uint64_t tasks_done = 0;
  uint64_t tasks_total = 0;
  double elapsed_ms = 0;
};

// One task: one shader dispatch for one node.
struct TaskInfo {
  std::string node;
  std::string op_type;
  std::string shader;
  std::vector<std::string> tensors;  // inputs then outputs
  // Run by the CPU reference inside the GPU run (the op has no GPU kernel,
  // or its kernel refused the node): its inputs are read back from their
  // pooled objects and its outputs uploaded into theirs. `shader` is then
  // "cpu_reference".
  bool on_cpu = false;
};

// How a GPU session's tasks split between the GPU and the CPU reference
// (SessionOptions::cpu_fallback). Fixed per input shape: every Run moves
// the same tensors.
struct PartitionReport {
  uint64_t gpu_tasks = 0;
  uint64_t cpu_tasks = 0;
  std::vector<std::string> cpu_nodes;  // "name (Op)", in task order
  // Per Run: tensors read back to the CPU and uploaded to the GPU, and the
  // bytes of GPU storage each moves (PHWC4 texels, fp16 or fp32 as stored).
  uint64_t transfers_to_cpu = 0;
  uint64_t transfers_to_gpu = 0;
  uint64_t bytes_to_cpu = 0;
  uint64_t bytes_to_gpu = 0;
};

}  // namespace glpool
