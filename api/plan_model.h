// The model side of planning (glpool/planning.h): a model file turned into
// the usage records it plans, once as imported ("unfused") and once after
// the default graph passes ("fused"), for every object kind.
#pragma once

#include "gpu_backend/compile/compile.h"

#include <map>
#include <string>
#include <vector>

#include "glpool/status.h"
#include "gpu_backend/compile/model_records.h"
#include "gpu_backend/import/onnx_import.h"

namespace glpool {

struct PlanModelFlags {
  bool random_weights = false;
  std::map<std::string, Shape> input_shapes;
  std::string precision = "fp32";         // fp32 | fp16: bytes per channel of buffer records
  bool memory_order = false;              // gpu_backend/compile/memory_order.h
  CompileOptions compile;                 // inputs/outputs in the pool, kept tensors
};

// Whether a plan argument names a model rather than a records JSON.
bool IsModelPath(const std::string& path);  // .onnx or .tflite
// Imports an .onnx or .tflite file (chosen by its extension).
StatusOr<Graph> LoadAnyModel(const std::string& path, const ImportOptions& options);

struct PlanModelVariant {
  std::string label;  // "unfused" or "fused"
  ModelRecords records;
};

// Imports `path` once and compiles it unfused and fused, in that order.
StatusOr<std::vector<PlanModelVariant>> LoadPlanModelVariants(const std::string& path,
                                                              const PlanModelFlags& flags);

}  // namespace glpool
