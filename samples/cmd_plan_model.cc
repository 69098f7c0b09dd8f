// Helpers for `glpool plan MODEL.onnx` (plan_model.h); no sub-command here.
#include "samples/plan_model.h"

#include "gpu_backend/graph/passes/passes.h"
#include "gpu_backend/kernels/kernel_check.h"

namespace glpool {

void AddPlanModelFlags(CLI::App& command, PlanModelFlags& flags) {
  command.add_flag("--random-weights", flags.random_weights,
                   "fill weights whose external data file is missing (graph-only models) deterministically");
  command.add_option("--input-shape", flags.input_shapes, "fix a dynamic input shape: NAME=1x3x640x640 (repeatable)");
  command.add_option("--precision", flags.precision, "bytes per channel of buffer/arena records")
      ->check(CLI::IsMember({"fp32", "fp16"}));
  command.add_option("--order", flags.order,
                     "node order: given (the model's), or memory (a topological order with a lower peak of "
                     "live bytes when one is found)")
      ->check(CLI::IsMember({"given", "memory"}));
}

bool IsModelPath(const std::string& path) {
  const std::string suffix = ".onnx";
  return path.size() > suffix.size() && path.compare(path.size() - suffix.size(), suffix.size(), suffix) == 0;
}

StatusOr<std::vector<PlanModelVariant>> LoadPlanModelVariants(const std::string& path,
                                                              const PlanModelFlags& flags) {
  ModelRecordsOptions options;
  options.import.random_weights = flags.random_weights;
  for (const std::string& flag : flags.input_shapes) {
    GLPOOL_RETURN_IF_ERROR(ParseInputShapeFlag(flag, &options.import));
  }
  if (flags.precision != "fp32" && flags.precision != "fp16") {
    return InvalidArgumentError("--precision must be fp32 or fp16, not '" + flags.precision + "'");
  }
  options.precision = flags.precision == "fp16" ? Precision::kFp16 : Precision::kFp32;
  if (flags.order != "given" && flags.order != "memory") {
    return InvalidArgumentError("--order must be given or memory, not '" + flags.order + "'");
  }
  options.memory_order = flags.order == "memory";
  GLPOOL_ASSIGN_OR_RETURN(Graph graph, LoadOnnxModel(path, options.import));
  // Refuse what `run` would refuse: every kernel of the graph `run` runs
  // (the fused one) is built, without GL.
  {
    Graph fused = graph;
    GLPOOL_TRY_CONTEXT(RunDefaultPasses(fused), path);
    GLPOOL_TRY_CONTEXT(CheckGpuKernels(fused), path);
  }
  const std::string model = ModelNameFromPath(path);
  std::vector<PlanModelVariant> variants;
  for (bool fuse : {false, true}) {
    options.fuse = fuse;
    StatusOr<ModelRecords> records = BuildModelRecords(graph, model, options);
    if (!records.ok()) return records.status().WithContext(path);
    variants.push_back({fuse ? "fused" : "unfused", std::move(records).value()});
  }
  return variants;
}

}  // namespace glpool
