// `glpool face`'s engine: a BlazeFace network on a Session, from an RGB
// image to face boxes and keypoints in the image's pixels.
#pragma once

#include <array>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "glpool/model.h"
#include "glpool/session.h"
#include "samples/face_detection.h"
#include "samples/image_preprocess.h"

namespace glpool {

// A face in image pixels.
struct ImageFace {
  float left = 0, top = 0, right = 0, bottom = 0;
  std::array<std::array<float, 2>, 6> keypoints{};
  float score = 0;
};

class FaceDetector {
 public:
  // Loads `model_path` (a BlazeFace .tflite laid out as `config` says) and
  // plans it on the current GL context with `options`. kInvalidModel naming
  // the file when its input or outputs are not BlazeFace's.
  static StatusOr<std::unique_ptr<FaceDetector>> Create(const std::string& model_path, const FaceModelConfig& config,
                                                        const SessionOptions& options = {});
  // The same checks, no Session and no GL: for InputFor and Decode around
  // a network run elsewhere (the overlay). Detect needs Create.
  static StatusOr<std::unique_ptr<FaceDetector>> Load(const std::string& model_path, const FaceModelConfig& config);

  // The image centred on a black square (aspect kept), scaled to the
  // input, values in [-1, 1], as MediaPipe feeds it; faces best first.
  StatusOr<std::vector<ImageFace>> Detect(const RgbImage& image);
  // Detect's two halves, for running the network elsewhere (the overlay):
  // the input tensor for `image`, and the faces from the run's outputs.
  TensorData InputFor(const RgbImage& image) const;
  StatusOr<std::vector<ImageFace>> Decode(const std::map<std::string, TensorData>& outputs,
                                          const RgbImage& image) const;
  const std::string& input_name() const { return input_; }
  const Model& model() const { return *model_; }

  const Session& session() const { return *session_; }

 private:
  FaceDetector() = default;
  std::string path_;
  FaceModelConfig config_;
  std::vector<Anchor> anchors_;
  std::unique_ptr<Model> model_;
  std::unique_ptr<Session> session_;
  std::string input_, regressors_, logits_;
};

}  // namespace glpool
