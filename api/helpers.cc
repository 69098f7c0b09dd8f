// Small public helpers that forward to the internal libraries.
#include "glpool/options.h"
#include "glpool/tensor.h"
#include "gpu_backend/import/onnx_import.h"
#include "gpu_backend/runtime/pool_plan.h"

namespace glpool {

std::vector<std::string> StrategyNames(ObjectKind kind) { return StrategyNamesFor(ObjectKindName(kind)); }

StatusOr<Shape> ParseShapeText(const std::string& text) { return ParseShape(text); }

StatusOr<TensorData> LoadTensorFile(const std::string& path) { return LoadTensorProtoFile(path); }

}  // namespace glpool
