#include "gpu_backend/import/onnx_import.h"

#include <cstdlib>

#include "gpu_backend/import/file_util.h"
#include "gpu_backend/import/import_state.h"

namespace glpool {
namespace {

Status ImportInto(const onnx::ModelProto& model, ImportState* state) {
  GLPOOL_RETURN_IF_ERROR(ConvertModel(model, state));
  CollectTypeHints(model, state);  // must outlive nothing: `model` stays alive until we return
  GLPOOL_RETURN_IF_ERROR(ResolveShapes(state));
  AdjustRandomWeights(state);
  return Status::Ok();
}

}  // namespace

StatusOr<Graph> ImportOnnxModel(const onnx::ModelProto& model, const std::string& model_dir,
                                const ImportOptions& options, const std::string& label) {
  ImportState state;
  state.label = label;
  state.model_dir = model_dir;
  state.options = options;
  Status status;
  try {
    status = ImportInto(model, &state);
  } catch (const std::exception& e) {
    status = InternalError(std::string("unexpected exception: ") + e.what());
  } catch (...) {
    status = InternalError("unexpected exception");
  }
  if (!status.ok()) return status.WithContext(label);
  return std::move(state.graph);
}

StatusOr<Graph> LoadOnnxModel(const std::string& path, const ImportOptions& options) {
  StatusOr<std::string> bytes = ReadFileBytes(path, "model");
  if (!bytes.ok()) return bytes.status();
  onnx::ModelProto model;
  if (!ParseProto(*bytes, &model)) {
    return InvalidModelError(path + ": not a valid ONNX model (the protobuf does not parse; corrupt or truncated file?)");
  }
  return ImportOnnxModel(model, DirName(path), options, path);
}

StatusOr<Shape> ParseShape(const std::string& text) {
  Shape shape;
  if (text.empty() || text == "scalar") return shape;
  size_t pos = 0;
  while (pos <= text.size()) {
    const size_t end = text.find_first_of("x,", pos);
    const std::string part = text.substr(pos, end == std::string::npos ? std::string::npos : end - pos);
    char* stop = nullptr;
    const long long value = std::strtoll(part.c_str(), &stop, 10);
    if (part.empty() || *stop != '\0' || value < 0) {
      return InvalidArgumentError("bad shape '" + text + "': expected dims like 1x3x224x224");
    }
    shape.push_back(value);
    if (end == std::string::npos) break;
    pos = end + 1;
  }
  return shape;
}

Status ParseInputShapeFlag(const std::string& flag, ImportOptions* options) {
  const size_t eq = flag.rfind('=');
  if (eq == std::string::npos || eq == 0) {
    return InvalidArgumentError("bad --input-shape '" + flag + "': expected NAME=1x3x224x224");
  }
  StatusOr<Shape> shape = ParseShape(flag.substr(eq + 1));
  if (!shape.ok()) return shape.status().WithContext("--input-shape " + flag);
  options->input_shapes[flag.substr(0, eq)] = *shape;
  return Status::Ok();
}

}  // namespace glpool
