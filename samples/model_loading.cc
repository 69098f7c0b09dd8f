#include "samples/model_loading.h"

namespace glpool {

void AddModelLoadFlags(CLI::App& command, ModelLoadFlags& flags) {
  command.add_flag("--random-weights", flags.random_weights,
                   "Fill weights whose external data file is missing deterministically");
  command.add_flag("--no-fuse", flags.no_fuse, "Skip the graph passes (fusion, folding)");
  command.add_option("--input-shape", flags.input_shapes, "Fix a dynamic input: NAME=1x3x640x640");
}

StatusOr<Model> LoadModelForRun(const std::string& path, const ModelLoadFlags& flags) {
  ModelOptions options;
  options.random_weights = flags.random_weights;
  options.run_graph_passes = !flags.no_fuse;
  return Model::Load(path, options);
}

StatusOr<std::map<std::string, Shape>> InputShapesFromFlags(const ModelLoadFlags& flags) {
  std::map<std::string, Shape> shapes;
  for (const std::string& flag : flags.input_shapes) {
    const size_t eq = flag.rfind('=');
    if (eq == std::string::npos || eq == 0) {
      return InvalidArgumentError("bad --input-shape '" + flag + "': expected NAME=1x3x224x224");
    }
    StatusOr<Shape> shape = ParseShapeText(flag.substr(eq + 1));
    if (!shape.ok()) return shape.status().WithContext("--input-shape " + flag);
    shapes[flag.substr(0, eq)] = *shape;
  }
  return shapes;
}

StatusOr<std::map<std::string, Shape>> ResolvedInputShapes(const Model& model, const ModelLoadFlags& flags,
                                                           const std::map<std::string, Shape>& from_data) {
  GLPOOL_ASSIGN_OR_RETURN(auto shapes, InputShapesFromFlags(flags));
  for (const auto& [name, shape] : from_data) shapes.emplace(name, shape);
  for (const TensorInfo& input : model.inputs()) {
    if (shapes.count(input.name)) continue;
    if (input.is_static()) {
      shapes[input.name] = input.shape();
      continue;
    }
    std::string open;
    for (const Dim& d : input.dims) {
      if (!d.fixed()) open += (open.empty() ? "" : ", ") + (d.symbol.empty() ? std::string("?") : d.symbol);
    }
    return BadShapeError("input '" + input.name + "' has symbolic dims (" + open +
                         "): give --input FILE (a tensor or an image: its size fills them) or --input-shape " +
                         InputShapeTemplate(input) + " with numbers for " + open);
  }
  return shapes;
}

Status ApplyObjectsAndPrecision(const std::string& objects, const std::string& precision, SessionOptions* options) {
  StatusOr<ObjectKind> kind = ParseObjectKind(objects);
  if (!kind.ok()) return kind.status().WithContext("--objects");
  StatusOr<Precision> parsed = ParsePrecision(precision);
  if (!parsed.ok()) return parsed.status().WithContext("--precision");
  options->objects = *kind;
  options->precision = *parsed;
  return Status::Ok();
}

}  // namespace glpool
