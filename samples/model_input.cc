#include "samples/model_input.h"

#include <random>

#include "glpool/files.h"
#include "samples/image_input.h"

namespace glpool {
namespace {

bool EndsWith(const std::string& text, const std::string& suffix) {
  return text.size() >= suffix.size() && text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

}  // namespace

StatusOr<Shape> ShapeFromInputFile(const std::string& path, const TensorInfo& input) {
  if (EndsWith(path, ".pb")) {
    GLPOOL_ASSIGN_OR_RETURN(TensorData data, LoadTensorFile(path));
    return data.shape;
  }
  if (input.dims.size() != 4) {
    return BadShapeError("image input " + path + ": the model input '" + input.name + "' has " +
                         std::to_string(input.dims.size()) + " dims, not N x 3 x H x W");
  }
  GLPOOL_ASSIGN_OR_RETURN(const std::string bytes, ReadWholeFile(path, "image", kMaxImageFileBytes));
  GLPOOL_ASSIGN_OR_RETURN(const auto size, ImageSize(bytes, path));
  const int64_t from_image[4] = {1, 3, size.second, size.first};
  Shape shape;
  for (size_t i = 0; i < 4; ++i) shape.push_back(input.dims[i].fixed() ? input.dims[i].value : from_image[i]);
  return shape;
}

StatusOr<TensorData> LoadModelInput(const std::string& path, const InputSpec& input,
                                    const ImagePreprocess& preprocess) {
  // Shapes may come from the command line: bounded before anything is filled.
  GLPOOL_RETURN_IF_ERROR(CheckTensorSize("input '" + input.name + "'", input.shape, input.dtype));
  const bool is_float = input.dtype == DataType::kFloat32 || input.dtype == DataType::kFloat16 ||
                        input.dtype == DataType::kFloat64;
  if (path.empty()) {
    if (!is_float) {
      // Integer and bool inputs are indices, lengths or masks: a random fill
      // means nothing there, zeros at least stay in range.
      TensorData zeros;
      zeros.dtype = input.dtype;
      zeros.shape = input.shape;
      zeros.bytes.assign(static_cast<size_t>(ElementCount(input.shape)) * DataTypeSize(input.dtype), 0);
      return zeros;
    }
    std::mt19937 rng(20261121);
    std::uniform_real_distribution<float> uniform(0.0f, 1.0f);
    std::vector<float> values(static_cast<size_t>(ElementCount(input.shape)));
    for (float& v : values) v = uniform(rng);
    return FloatsAsTensor(input.dtype, input.shape, values);  // a float16 model's input too
  }
  if (EndsWith(path, ".pb")) {
    GLPOOL_ASSIGN_OR_RETURN(TensorData data, LoadTensorFile(path));
    if (data.dtype != input.dtype) {
      return InvalidArgumentError("input file " + path + " holds " + DataTypeName(data.dtype) +
                                  " values, the model input '" + input.name + "' is " + DataTypeName(input.dtype));
    }
    if (data.shape != input.shape) {
      return InvalidArgumentError("input file " + path + " holds shape " + ShapeToString(data.shape) +
                                  ", the model input '" + input.name + "' expects " + ShapeToString(input.shape));
    }
    return data;
  }
  if (!is_float) {
    return InvalidArgumentError("image input " + path + ": the model input '" + input.name + "' is " +
                                DataTypeName(input.dtype) + ", not a float type");
  }
  GLPOOL_ASSIGN_OR_RETURN(const std::string bytes, ReadWholeFile(path, "image", kMaxImageFileBytes));
  GLPOOL_ASSIGN_OR_RETURN(TensorData image, DecodeImageInput(bytes, path, input, preprocess));
  return FloatsAsTensor(input.dtype, image.shape, image.ToFloats());
}

}  // namespace glpool
