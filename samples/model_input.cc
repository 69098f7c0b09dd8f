#include "samples/model_input.h"

#include <random>

#include "gpu_backend/import/file_util.h"
#include "gpu_backend/import/onnx_import.h"
#include "samples/image_input.h"

namespace glpool {
namespace {

bool EndsWith(const std::string& text, const std::string& suffix) {
  return text.size() >= suffix.size() && text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

}  // namespace

StatusOr<TensorData> LoadModelInput(const std::string& path, const Tensor& input) {
  if (path.empty()) {
    std::mt19937 rng(20261121);
    std::uniform_real_distribution<float> uniform(0.0f, 1.0f);
    std::vector<float> values(static_cast<size_t>(ElementCount(input.shape)));
    for (float& v : values) v = uniform(rng);
    return TensorData::FromFloats(input.shape, values);
  }
  if (EndsWith(path, ".pb")) {
    GLPOOL_ASSIGN_OR_RETURN(TensorData data, LoadTensorProtoFile(path));
    if (data.shape != input.shape) {
      return InvalidArgumentError("input file " + path + " holds shape " + ShapeToString(data.shape) +
                                  ", the model input '" + input.name + "' expects " + ShapeToString(input.shape));
    }
    return data;
  }
  GLPOOL_ASSIGN_OR_RETURN(std::string bytes, ReadFileBytes(path));
  return DecodeImageInput(bytes, path, input);
}

}  // namespace glpool
