// Fuzz target: ONNX model bytes -> import (from memory, random weights) ->
// graph passes -> compile -> usage records -> a plan of each object kind,
// every plan verified. No GL. Structure-aware mutation lives in
// onnx_mutator.cc; this file only runs one model.
//
// Symbolic input dims are fixed to 1 (as --input-shape would), so dynamic
// models get past import. External data is looked up in a folder that does
// not exist: random_weights fills what it would have held.
#include <cstddef>
#include <cstdint>
#include <string>

#include "gpu_backend/compile/model_records.h"
#include "gpu_backend/import/file_util.h"
#include "gpu_backend/import/onnx_import.h"
#include "planner/extents_planner.h"
#include "planner/objects_planner.h"
#include "planner/offsets_planner.h"
#include "planner/verifier.h"
#include "tests/fuzz/fuzz_check.h"

namespace glpool::fuzz {
namespace {

constexpr char kNoSuchDir[] = "/nonexistent/glpool-fuzz";

void FixSymbolicInputs(const onnx::ModelProto& model, ImportOptions* options) {
  for (const onnx::ValueInfoProto& input : model.graph().input()) {
    if (!input.type().has_tensor_type() || !input.type().tensor_type().has_shape()) continue;
    Shape shape;
    bool symbolic = false;
    for (const auto& dim : input.type().tensor_type().shape().dim()) {
      symbolic = symbolic || !dim.has_dim_value();
      shape.push_back(dim.has_dim_value() ? dim.dim_value() : 1);
    }
    if (symbolic) options->input_shapes[input.name()] = shape;
  }
}

void PlanRecords(const ModelRecords& records) {
  const RecordSet& set = records.buffers;
  StatusOr<ObjectsPlan> objects = PlanSharedObjects(set.records, ObjectStrategy::kGreedyBySize);
  FUZZ_CHECK(objects.ok(), objects.status().ToString());
  Status verified = VerifySharedObjects(set.records, objects->assignment, &set.names);
  FUZZ_CHECK(verified.ok(), verified.ToString());

  OffsetOptions options;
  options.alignment = 64;
  StatusOr<OffsetPlan> arena = PlanOffsets(set.records, OffsetStrategy::kGreedyBySize, options);
  if (arena.ok()) {
    verified = VerifyOffsets(set.records, arena->assignment, options.alignment, &set.names);
    FUZZ_CHECK(verified.ok(), verified.ToString());
  } else {
    // The only refusal allowed: padded sizes that do not fit in 64 bits.
    CheckCleanError(arena.status());
  }

  // A tensor with a 0 dim has an empty texture extent, which the extents
  // planner refuses (no GL texture is 0 texels wide): a clean refusal.
  auto textures = PlanExtents(records.textures_2d, ExtentStrategy::kGreedyInOrder);
  if (!textures.ok()) {
    CheckCleanError(textures.status());
    return;
  }
  verified = VerifySharedObjects(records.textures_2d, textures->assignment, &set.names);
  FUZZ_CHECK(verified.ok(), verified.ToString());
}

}  // namespace
}  // namespace glpool::fuzz

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace glpool;
  onnx::ModelProto model;
  if (!ParseProto(std::string(reinterpret_cast<const char*>(data), size), &model)) return 0;
  ImportOptions import;
  import.random_weights = true;
  // Weights are filled, not read: keep each fill small so an input costs
  // milliseconds (the 4 GiB default is for real models).
  import.max_weight_bytes = uint64_t{1} << 26;
  fuzz::FixSymbolicInputs(model, &import);
  StatusOr<Graph> graph = ImportOnnxModel(model, fuzz::kNoSuchDir, import, "<fuzz>.onnx");
  if (!graph.ok()) {
    fuzz::CheckCleanError(graph.status());
    return 0;
  }
  for (const auto& [name, tensor] : graph->tensors) {
    for (int64_t d : tensor.shape) FUZZ_CHECK(d >= 0, "tensor '" + name + "' has a negative dim");
  }
  for (bool fuse : {false, true}) {
    ModelRecordsOptions options;
    options.import = import;
    options.fuse = fuse;
    // Fused, every Concat that qualifies goes in place (as if a GPU kernel
    // ran every node), so its windows reach compile and the planners too.
    options.in_place_concats = [](const Graph&, const Node&) { return true; };
    StatusOr<ModelRecords> records = BuildModelRecords(*graph, "fuzz", options);
    if (!records.ok()) {
      fuzz::CheckCleanError(records.status());
      continue;
    }
    fuzz::PlanRecords(*records);
  }
  return 0;
}
