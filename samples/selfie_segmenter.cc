#include "samples/selfie_segmenter.h"

#include <algorithm>
#include <cmath>

namespace glpool {

StatusOr<std::unique_ptr<SelfieSegmenter>> SelfieSegmenter::Create(const std::string& model_path,
                                                                   const SessionOptions& options) {
  GLPOOL_ASSIGN_OR_RETURN(std::unique_ptr<SelfieSegmenter> segmenter, Load(model_path));
  auto session = Session::Create(*segmenter->model_, options);
  if (!session.ok()) return session.status().WithContext(model_path);
  segmenter->session_ = std::move(session).value();
  return segmenter;
}

StatusOr<std::unique_ptr<SelfieSegmenter>> SelfieSegmenter::Load(const std::string& model_path) {
  auto segmenter = std::unique_ptr<SelfieSegmenter>(new SelfieSegmenter());
  segmenter->path_ = model_path;
  GLPOOL_ASSIGN_OR_RETURN(Model model, Model::Load(model_path));
  segmenter->model_ = std::make_unique<Model>(std::move(model));
  const Model& m = *segmenter->model_;
  const Shape in = m.inputs().size() == 1 ? m.inputs()[0].shape() : Shape{};
  const Shape out = m.outputs().size() == 1 ? m.outputs()[0].shape() : Shape{};
  if (in.size() != 4 || in[0] != 1 || in[1] != 3 || in[2] <= 0 || in[3] <= 0 ||
      out != Shape{1, 1, in[2], in[3]}) {
    return InvalidModelError(model_path + ": expected one 1x3xHxW input and one 1x1xHxW output (selfie segmentation)");
  }
  segmenter->input_ = m.inputs()[0].name;
  segmenter->output_ = m.outputs()[0].name;
  segmenter->input_shape_ = in;
  return segmenter;
}

TensorData SelfieSegmenter::InputFor(const RgbImage& image) const {
  return ImageToTensor(image, input_shape_, ImagePreprocess{});
}

StatusOr<PersonMask> SelfieSegmenter::Segment(const RgbImage& image) {
  if (!session_) return InternalError(path_ + ": loaded without a session (SelfieSegmenter::Load)");
  auto outputs = session_->Run({{input_, InputFor(image)}});
  if (!outputs.ok()) return outputs.status().WithContext(path_);
  return MaskFrom(*outputs, image);
}

StatusOr<PersonMask> SelfieSegmenter::MaskFrom(const std::map<std::string, TensorData>& outputs,
                                               const RgbImage& image) const {
  auto output = outputs.find(output_);
  if (output == outputs.end()) return InvalidArgumentError(path_ + ": the run's outputs lack " + output_);
  const std::vector<float> small = output->second.ToFloats();
  const int64_t h = input_shape_[2], w = input_shape_[3];
  auto at = [&](int64_t x, int64_t y) {
    return small[static_cast<size_t>(std::clamp<int64_t>(y, 0, h - 1) * w + std::clamp<int64_t>(x, 0, w - 1))];
  };
  PersonMask mask;
  mask.width = image.width;
  mask.height = image.height;
  mask.values.resize(static_cast<size_t>(image.width * image.height));
  // Bilinear, pixel centres aligned, as the input was sampled.
  for (int64_t y = 0; y < image.height; ++y) {
    const double sy = (y + 0.5) * h / image.height - 0.5;
    const int64_t y0 = static_cast<int64_t>(std::floor(sy));
    const float fy = static_cast<float>(sy - y0);
    for (int64_t x = 0; x < image.width; ++x) {
      const double sx = (x + 0.5) * w / image.width - 0.5;
      const int64_t x0 = static_cast<int64_t>(std::floor(sx));
      const float fx = static_cast<float>(sx - x0);
      const float top = at(x0, y0) * (1 - fx) + at(x0 + 1, y0) * fx;
      const float bottom = at(x0, y0 + 1) * (1 - fx) + at(x0 + 1, y0 + 1) * fx;
      mask.values[static_cast<size_t>(y * image.width + x)] = std::clamp(top * (1 - fy) + bottom * fy, 0.0f, 1.0f);
    }
  }
  return mask;
}

}  // namespace glpool
