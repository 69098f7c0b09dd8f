#include "samples/model_loading.h"

#include "gpu_backend/graph/passes/passes.h"
#include "gpu_backend/import/onnx_import.h"

namespace glpool {

void AddModelLoadFlags(CLI::App& command, ModelLoadFlags& flags) {
  command.add_flag("--random-weights", flags.random_weights,
                   "Fill weights whose external data file is missing deterministically");
  command.add_flag("--no-fuse", flags.no_fuse, "Skip the graph passes (fusion, folding)");
  command.add_option("--input-shape", flags.input_shapes, "Fix a dynamic input: NAME=1x3x640x640");
}

StatusOr<Graph> LoadModelForRun(const std::string& path, const ModelLoadFlags& flags) {
  ImportOptions options;
  options.random_weights = flags.random_weights;
  for (const std::string& flag : flags.input_shapes) GLPOOL_RETURN_IF_ERROR(ParseInputShapeFlag(flag, &options));
  GLPOOL_ASSIGN_OR_RETURN(Graph graph, LoadOnnxModel(path, options));
  if (!flags.no_fuse) GLPOOL_TRY_CONTEXT(RunDefaultPasses(graph), path);
  return graph;
}

}  // namespace glpool
