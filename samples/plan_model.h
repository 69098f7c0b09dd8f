// The model side of `glpool plan MODEL.onnx`: cmd_plan.cc owns the command
// and the report; these helpers turn a model file into the usage records it
// plans, once as imported ("unfused") and once after the default graph
// passes ("fused"), for every object kind.
//
// Use from cmd_plan.cc:
//   PlanModelFlags model_flags;
//   AddPlanModelFlags(*command, model_flags);    // --random-weights, --input-shape, --precision
//   if (IsModelPath(positional)) {
//     GLPOOL_ASSIGN_OR_RETURN(auto variants, LoadPlanModelVariants(positional, model_flags));
//     for (const PlanModelVariant& v : variants) {
//       // v.label: "unfused" or "fused"
//       // buffers / arena: v.records.buffers (RecordSet: names + ByteRecords)
//       // textures:        v.records.textures_2d (or textures_3d), same order as names
//     }
//   }
#pragma once

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

#include "common/status.h"
#include "gpu_backend/compile/model_records.h"

namespace glpool {

struct PlanModelFlags {
  bool random_weights = false;
  std::vector<std::string> input_shapes;  // NAME=1x3x640x640
  std::string precision = "fp32";         // fp32 | fp16: bytes per channel of buffer records
  std::string order = "given";            // given | memory (gpu_backend/compile/memory_order.h)
};

// Registers --random-weights, --input-shape (repeatable), --precision and --order.
void AddPlanModelFlags(CLI::App& command, PlanModelFlags& flags);

// Whether a plan argument names a model rather than a records JSON.
bool IsModelPath(const std::string& path);

struct PlanModelVariant {
  std::string label;  // "unfused" or "fused"
  ModelRecords records;
};

// Imports `path` once and compiles it unfused and fused, in that order.
StatusOr<std::vector<PlanModelVariant>> LoadPlanModelVariants(const std::string& path,
                                                              const PlanModelFlags& flags);

}  // namespace glpool
