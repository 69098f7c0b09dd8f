// `glpool selfie`'s engine: MediaPipe's selfie segmentation network on a
// Session, from an RGB image to the person's probability at every pixel.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "glpool/model.h"
#include "glpool/session.h"
#include "samples/image_preprocess.h"

namespace glpool {

// Person probability in [0, 1] per image pixel, row-major.
struct PersonMask {
  int64_t width = 0, height = 0;
  std::vector<float> values;

  float at(int64_t x, int64_t y) const { return values[static_cast<size_t>(y * width + x)]; }
};

class SelfieSegmenter {
 public:
  // Loads `model_path` (one 1x3xHxW input, one 1x1xHxW output: the square
  // and landscape selfie models) and plans it on the current GL context.
  // kInvalidModel naming the file when its shapes are not those.
  static StatusOr<std::unique_ptr<SelfieSegmenter>> Create(const std::string& model_path,
                                                           const SessionOptions& options = {});
  // The same checks, no Session and no GL (see FaceDetector::Load).
  static StatusOr<std::unique_ptr<SelfieSegmenter>> Load(const std::string& model_path);

  // The image stretched to the input, RGB in [0, 1]; the network's mask
  // resampled (bilinear) back to the image's size.
  StatusOr<PersonMask> Segment(const RgbImage& image);
  // Segment's two halves, for running the network elsewhere (the overlay).
  TensorData InputFor(const RgbImage& image) const;
  StatusOr<PersonMask> MaskFrom(const std::map<std::string, TensorData>& outputs, const RgbImage& image) const;
  const std::string& input_name() const { return input_; }
  const Model& model() const { return *model_; }

  const Session& session() const { return *session_; }

 private:
  SelfieSegmenter() = default;
  std::string path_;
  std::unique_ptr<Model> model_;
  std::unique_ptr<Session> session_;
  std::string input_, output_;
  Shape input_shape_;
};

}  // namespace glpool
