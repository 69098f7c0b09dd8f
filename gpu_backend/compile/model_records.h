// One call from a model file to everything `glpool plan MODEL.onnx` needs:
// import (random weights and input shapes as asked), optionally the default
// graph passes, compile, and the usage records for each object kind.
#pragma once

#include <functional>

#include <string>
#include <vector>

#include "common/status.h"
#include "gpu_backend/compile/compile.h"
#include "gpu_backend/compile/memory_order.h"
#include "gpu_backend/compile/usage_records.h"
#include "gpu_backend/graph/passes/passes.h"
#include "gpu_backend/import/onnx_import.h"

namespace glpool {

struct ModelRecordsOptions {
  ImportOptions import;
  bool fuse = true;  // run RunDefaultPasses before compiling
  Precision precision = Precision::kFp32;
  // Run the nodes in a memory-aware order (memory_order.h) instead of the
  // given one, when that lowers the peak of live bytes.
  bool memory_order = false;
  double order_budget_seconds = 1.0;
  CompileOptions compile;  // graph inputs/outputs in the pool, kept tensors
  // With fuse: Concats made in place as a session makes them
  // (in_place_concat.h), this saying which nodes a GPU kernel runs; empty
  // keeps every Concat a copy.
  std::function<bool(const Graph&, const Node&)> in_place_concats;
};

struct ModelRecords {
  std::string model;        // file name without folder and extension
  int64_t graph_nodes = 0;  // nodes after import (and passes)
  int64_t graph_tensors = 0;
  PassStats passes;         // zero when !fuse
  // Offsets lower bound (peak live bytes) of the given order and of the
  // order compiled (equal unless memory_order found a lower one).
  uint64_t peak_given = 0;
  uint64_t peak = 0;
  bool reordered = false;
  CompiledGraph compiled;
  RecordSet buffers;        // names + byte records at the chosen precision
  std::vector<Extent2DRecord> textures_2d;  // same order as buffers.names
  std::vector<Extent3DRecord> textures_3d;
};

StatusOr<ModelRecords> BuildModelRecords(const std::string& path, const ModelRecordsOptions& options);

// "dir/resnet50.onnx" -> "resnet50"; a backend-test case's "case/model.onnx" -> "case".
std::string ModelNameFromPath(const std::string& path);

// Same from a Graph already imported (passes run on a copy).
StatusOr<ModelRecords> BuildModelRecords(const Graph& graph, const std::string& model,
                                         const ModelRecordsOptions& options);

}  // namespace glpool
