// Shared pieces of the API tests: model files, inputs, comparisons, and the
// app-side GL objects (owned by the test, as an app owns its own).
#pragma once

#include <GLES3/gl31.h>

#include <cstdint>
#include <string>
#include <vector>

#include "glpool/glpool.h"

namespace glpool::testing_util {

// <shared>/models/<name>/model.onnx
std::string SharedModelPath(const std::string& name);

// A small convolutional network whose input is 1 x 3 x H x W with H and W
// symbolic ("height", "width"): Conv 3x3 (pad 1) -> Relu -> MaxPool 2x2 ->
// Conv 1x1 -> Sigmoid, output 1 x 5 x H/2 x W/2. Written into a temp folder.
std::string WriteSymbolicConvModel();

// 1 x 3 x H x W -> Conv 1x1 (3 -> 4 channels) -> Sigmoid -> 1 x 4 x H x W
// ("image" -> "rgba"), H and W symbolic: an output a texture can hold.
std::string WriteFourChannelModel();

// A model with one op glpool has no kernel for on the GPU (but ONNX knows).
std::string WriteUnsupportedOpModel();

// Two branches over x (1 x 8 x 32 x 32), each a large tensor reduced to a
// small one, listed breadth-first: Sigmoid, Tanh, then both global pools,
// then their sum "y". In this given order both large tensors are live at
// once; running each branch to its pool first halves that peak.
std::string WriteTwoBranchModel();

// Values in [0, 1) from a fixed seed.
TensorData RandomFloats(const Shape& shape, uint32_t seed);

// Same dtype, shape and bytes.
bool BitIdentical(const TensorData& a, const TensorData& b);
// Largest |a - b| over all elements, as floats.
float MaxAbsDifference(const TensorData& a, const TensorData& b);

// One SSBO the test owns.
class AppBuffer {
 public:
  explicit AppBuffer(size_t bytes, const void* data = nullptr);
  ~AppBuffer();
  AppBuffer(const AppBuffer&) = delete;
  AppBuffer& operator=(const AppBuffer&) = delete;
  GLuint id() const { return id_; }
  std::vector<float> ReadFloats(size_t count) const;  // the app's own read, not glpool's

 private:
  GLuint id_ = 0;
};

// One immutable 2D texture the test owns.
class AppTexture {
 public:
  AppTexture(GLenum internal_format, int width, int height);
  ~AppTexture();
  AppTexture(const AppTexture&) = delete;
  AppTexture& operator=(const AppTexture&) = delete;
  GLuint id() const { return id_; }
  void Upload(GLenum format, GLenum type, const void* pixels);
  // The app's own read through a framebuffer (float RGBA, rows bottom-up as GL stores them).
  std::vector<float> ReadRgbaFloats() const;

 private:
  GLuint id_ = 0;
  int width_ = 0, height_ = 0;
};

}  // namespace glpool::testing_util
