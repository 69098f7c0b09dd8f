#include "api/plan_model.h"

#include "gpu_backend/import/onnx_import.h"
#include "gpu_backend/import/tflite/tflite_import.h"

#include "gpu_backend/graph/passes/passes.h"
#include "gpu_backend/kernels/kernel_check.h"
#include "gpu_backend/runtime/cpu_fallback.h"

namespace glpool {

namespace {

bool EndsWith(const std::string& path, const std::string& suffix) {
  return path.size() > suffix.size() && path.compare(path.size() - suffix.size(), suffix.size(), suffix) == 0;
}

}  // namespace

bool IsModelPath(const std::string& path) { return EndsWith(path, ".onnx") || EndsWith(path, ".tflite"); }

StatusOr<Graph> LoadAnyModel(const std::string& path, const ImportOptions& options) {
  if (EndsWith(path, ".tflite")) return LoadTfliteModel(path, options);
  return LoadOnnxModel(path, options);
}

StatusOr<std::vector<PlanModelVariant>> LoadPlanModelVariants(const std::string& path,
                                                              const PlanModelFlags& flags) {
  ModelRecordsOptions options;
  options.import.random_weights = flags.random_weights;
  options.import.input_shapes = flags.input_shapes;
  if (flags.precision != "fp32" && flags.precision != "fp16") {
    return InvalidArgumentError("--precision must be fp32 or fp16, not '" + flags.precision + "'");
  }
  options.precision = flags.precision == "fp16" ? Precision::kFp16 : Precision::kFp32;
  options.memory_order = flags.memory_order;
  options.compile = flags.compile;
  GLPOOL_ASSIGN_OR_RETURN(Graph graph, LoadAnyModel(path, options.import));
  // Refuse what `run` would refuse: every kernel of the graph `run` runs
  // (the fused one) is built, without GL; a node the CPU fallback takes is
  // a task like any other.
  {
    Graph fused = graph;
    GLPOOL_TRY_CONTEXT(RunDefaultPasses(fused), path);
    GLPOOL_TRY_CONTEXT(CheckGpuKernels(fused, [&fused](const Node& node, const Status& refusal) {
                         return CheckCpuFallback(fused, node, refusal);
                       }),
                       path);
  }
  const std::string model = ModelNameFromPath(path);
  // The fused variant makes Concats in place as a session would.
  options.in_place_concats = [](const Graph& fused, const Node& node) {
    return BuildNodeKernel(fused, node, KernelLimits{}).ok();
  };
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
