#include "samples/face_detector.h"

#include <algorithm>
#include <cmath>

namespace glpool {

StatusOr<std::unique_ptr<FaceDetector>> FaceDetector::Create(const std::string& model_path,
                                                              const FaceModelConfig& config,
                                                              const SessionOptions& options) {
  GLPOOL_ASSIGN_OR_RETURN(std::unique_ptr<FaceDetector> detector, Load(model_path, config));
  auto session = Session::Create(*detector->model_, options);
  if (!session.ok()) return session.status().WithContext(model_path);
  detector->session_ = std::move(session).value();
  return detector;
}

StatusOr<std::unique_ptr<FaceDetector>> FaceDetector::Load(const std::string& model_path,
                                                            const FaceModelConfig& config) {
  auto detector = std::unique_ptr<FaceDetector>(new FaceDetector());
  detector->path_ = model_path;
  detector->config_ = config;
  detector->anchors_ = FaceAnchors(config);
  GLPOOL_ASSIGN_OR_RETURN(Model model, Model::Load(model_path));
  detector->model_ = std::make_unique<Model>(std::move(model));
  const Model& m = *detector->model_;
  const Shape expected_input = {1, 3, config.input_size, config.input_size};
  if (m.inputs().size() != 1 || m.inputs()[0].shape() != expected_input) {
    return InvalidModelError(model_path + ": expected one input of shape " + ShapeToString(expected_input) +
                             " (BlazeFace " + config.name + " range)");
  }
  detector->input_ = m.inputs()[0].name;
  // Outputs: regressors N x anchors x 16 and scores N x anchors x 1, told
  // apart by their last dim rather than by name.
  const int64_t anchors = static_cast<int64_t>(detector->anchors_.size());
  for (const TensorInfo& output : m.outputs()) {
    const Shape shape = output.shape();
    if (shape == Shape{1, anchors, 16}) detector->regressors_ = output.name;
    if (shape == Shape{1, anchors, 1}) detector->logits_ = output.name;
  }
  if (detector->regressors_.empty() || detector->logits_.empty()) {
    return InvalidModelError(model_path + ": expected outputs of shape 1x" + std::to_string(anchors) + "x16 and 1x" +
                             std::to_string(anchors) + "x1 (BlazeFace " + config.name + " range)");
  }
  return detector;
}

TensorData FaceDetector::InputFor(const RgbImage& image) const {
  // As MediaPipe feeds BlazeFace: the photo centred on a black square
  // (aspect kept), scaled to the input, values in [-1, 1].
  const int64_t side = std::max(image.width, image.height);
  const int64_t pad_x = (side - image.width) / 2, pad_y = (side - image.height) / 2;
  RgbImage square{side, side, std::vector<uint8_t>(static_cast<size_t>(side * side * 3), 0)};
  for (int64_t y = 0; y < image.height; ++y) {
    std::copy_n(&image.pixels[static_cast<size_t>(y * image.width * 3)], image.width * 3,
                &square.pixels[static_cast<size_t>(((y + pad_y) * side + pad_x) * 3)]);
  }
  ImagePreprocess preprocess;
  preprocess.mean = {0.5f, 0.5f, 0.5f};
  preprocess.std = {0.5f, 0.5f, 0.5f};
  const int64_t size = config_.input_size;
  return ImageToTensor(square, {1, 3, size, size}, preprocess);
}

StatusOr<std::vector<ImageFace>> FaceDetector::Decode(const std::map<std::string, TensorData>& outputs,
                                                      const RgbImage& image) const {
  auto regressors = outputs.find(regressors_), logits = outputs.find(logits_);
  if (regressors == outputs.end() || logits == outputs.end()) {
    return InvalidArgumentError(path_ + ": the run's outputs lack " + regressors_ + " or " + logits_);
  }
  const std::vector<Face> faces = WeightedSuppression(
      DecodeFaces(regressors->second.ToFloats(), logits->second.ToFloats(), anchors_, config_), config_.iou_threshold);
  // Back to the photo's pixels: [0, 1] of the square, less the padding.
  const int64_t side = std::max(image.width, image.height);
  const int64_t pad_x = (side - image.width) / 2, pad_y = (side - image.height) / 2;
  const auto to_x = [&](float v) { return static_cast<float>(v * side - pad_x); };
  const auto to_y = [&](float v) { return static_cast<float>(v * side - pad_y); };
  std::vector<ImageFace> placed;
  for (const Face& face : faces) {
    ImageFace out;
    out.left = to_x(face.left());
    out.right = to_x(face.right());
    out.top = to_y(face.top());
    out.bottom = to_y(face.bottom());
    for (size_t k = 0; k < 6; ++k) out.keypoints[k] = {to_x(face.keypoints[k][0]), to_y(face.keypoints[k][1])};
    out.score = face.score;
    placed.push_back(out);
  }
  return placed;
}

StatusOr<std::vector<ImageFace>> FaceDetector::Detect(const RgbImage& image) {
  if (!session_) return InternalError(path_ + ": loaded without a session (FaceDetector::Load)");
  auto outputs = session_->Run({{input_, InputFor(image)}});
  if (!outputs.ok()) return outputs.status().WithContext(path_);
  return Decode(*outputs, image);
}

}  // namespace glpool
