// Small public helpers that forward to the internal libraries.
#include <fstream>

#include "glpool/options.h"
#include "glpool/tensor.h"
#include "gpu_backend/import/onnx_import.h"
#include "gpu_backend/import/tensor_proto.h"
#include "gpu_backend/runtime/pool_plan.h"

namespace glpool {

std::vector<std::string> StrategyNames(ObjectKind kind) { return StrategyNamesFor(ObjectKindName(kind)); }

StatusOr<Shape> ParseShapeText(const std::string& text) { return ParseShape(text); }

StatusOr<TensorData> LoadTensorFile(const std::string& path) { return LoadTensorProtoFile(path); }

Status SaveTensorFile(const TensorData& data, const std::string& name, const std::string& path) {
  onnx::TensorProto proto;
  TensorDataToProto(data, name, &proto);
  std::string bytes;
  if (!proto.SerializeToString(&bytes)) return InternalError("serializing tensor '" + name + "' failed");
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) return NotFoundError("cannot write " + path + " (tensor '" + name + "')");
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  out.close();
  if (!out) return NotFoundError("writing " + path + " (tensor '" + name + "') failed");
  return Status::Ok();
}

}  // namespace glpool
