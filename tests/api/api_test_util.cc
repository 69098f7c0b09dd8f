#include "api_test_util.h"

#include <cmath>
#include <cstring>
#include <random>

#include "model_builder.h"

namespace glpool::testing_util {

std::string SharedModelPath(const std::string& name) {
  return std::string(GLPOOL_SHARED_DIR) + "/models/" + name + "/model.onnx";
}

std::string WriteSymbolicConvModel() {
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> uniform(-0.5f, 0.5f);
  auto values = [&](size_t count) {
    std::vector<float> v(count);
    for (float& x : v) x = uniform(rng);
    return v;
  };
  ModelBuilder builder;
  builder.Input("image", {1, 3, -1, -1})
      .Output("mask")
      .FloatInit("w1", {8, 3, 3, 3}, values(8 * 3 * 3 * 3))
      .FloatInit("b1", {8}, values(8))
      .FloatInit("w2", {5, 8, 1, 1}, values(5 * 8))
      .Node("Conv", {"image", "w1", "b1"}, {"c1"}, "conv1")
      .AttrInts("pads", {1, 1, 1, 1})
      .Node("Relu", {"c1"}, {"r1"}, "relu1")
      .Node("MaxPool", {"r1"}, {"p1"}, "pool1")
      .AttrInts("kernel_shape", {2, 2})
      .AttrInts("strides", {2, 2})
      .Node("Conv", {"p1", "w2"}, {"c2"}, "conv2")
      .Node("Sigmoid", {"c2"}, {"mask"}, "sigmoid");
  // The builder names every symbolic dim "N"; give H and W their own names.
  auto* dims = builder.model().mutable_graph()->mutable_input(0)->mutable_type()->mutable_tensor_type()
                   ->mutable_shape()->mutable_dim();
  dims->Mutable(2)->set_dim_param("height");
  dims->Mutable(3)->set_dim_param("width");
  return builder.Save(MakeTempDir());
}

std::string WriteFourChannelModel() {
  ModelBuilder builder;
  builder.Input("image", {1, 3, -1, -1})
      .Output("rgba")
      .FloatInit("w", {4, 3, 1, 1}, {0.5f, -1.0f, 0.25f, 1.5f, 0.0f, -0.5f, -2.0f, 0.75f, 1.0f, 0.3f, 0.3f, 0.3f})
      .Node("Conv", {"image", "w"}, {"c"}, "conv")
      .Node("Sigmoid", {"c"}, {"rgba"}, "sigmoid");
  auto* dims = builder.model().mutable_graph()->mutable_input(0)->mutable_type()->mutable_tensor_type()
                   ->mutable_shape()->mutable_dim();
  dims->Mutable(2)->set_dim_param("height");
  dims->Mutable(3)->set_dim_param("width");
  return builder.Save(MakeTempDir());
}

std::string WriteUnsupportedOpModel() {
  ModelBuilder builder;
  // Det (determinant) is a valid ONNX op that neither the GPU nor the CPU
  // reference implements.
  builder.Input("x", {1, 3, 3}).Output("y").Node("Det", {"x"}, {"y"}, "determinant");
  return builder.Save(MakeTempDir());
}

std::string WriteTwoBranchModel() {
  ModelBuilder builder;
  builder.Input("x", {1, 8, 32, 32}).Output("y");
  builder.Node("Sigmoid", {"x"}, {"a"}, "sigmoid").Node("Tanh", {"x"}, {"b"}, "tanh");
  builder.Node("GlobalAveragePool", {"a"}, {"a_pooled"}, "pool_a");
  builder.Node("GlobalAveragePool", {"b"}, {"b_pooled"}, "pool_b");
  builder.Node("Add", {"a_pooled", "b_pooled"}, {"y"}, "sum");
  return builder.Save(MakeTempDir());
}

TensorData RandomFloats(const Shape& shape, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> uniform(0.0f, 1.0f);
  std::vector<float> values(static_cast<size_t>(ElementCount(shape)));
  for (float& v : values) v = uniform(rng);
  return TensorData::FromFloats(shape, values);
}

bool BitIdentical(const TensorData& a, const TensorData& b) {
  return a.dtype == b.dtype && a.shape == b.shape && a.bytes == b.bytes;
}

float MaxAbsDifference(const TensorData& a, const TensorData& b) {
  const std::vector<float> x = a.ToFloats(), y = b.ToFloats();
  if (x.size() != y.size()) return INFINITY;
  float largest = 0;
  for (size_t i = 0; i < x.size(); ++i) largest = std::max(largest, std::fabs(x[i] - y[i]));
  return largest;
}

AppBuffer::AppBuffer(size_t bytes, const void* data) {
  glGenBuffers(1, &id_);
  glBindBuffer(GL_SHADER_STORAGE_BUFFER, id_);
  glBufferData(GL_SHADER_STORAGE_BUFFER, static_cast<GLsizeiptr>(bytes), data, GL_DYNAMIC_DRAW);
  glBindBuffer(GL_SHADER_STORAGE_BUFFER, 0);
}

AppBuffer::~AppBuffer() { glDeleteBuffers(1, &id_); }

std::vector<float> AppBuffer::ReadFloats(size_t count) const {
  std::vector<float> values(count);
  glBindBuffer(GL_SHADER_STORAGE_BUFFER, id_);
  const void* mapped = glMapBufferRange(GL_SHADER_STORAGE_BUFFER, 0, static_cast<GLsizeiptr>(count * 4), GL_MAP_READ_BIT);
  if (mapped != nullptr) std::memcpy(values.data(), mapped, count * 4);
  glUnmapBuffer(GL_SHADER_STORAGE_BUFFER);
  glBindBuffer(GL_SHADER_STORAGE_BUFFER, 0);
  return values;
}

AppTexture::AppTexture(GLenum internal_format, int width, int height) : width_(width), height_(height) {
  glGenTextures(1, &id_);
  glBindTexture(GL_TEXTURE_2D, id_);
  glTexStorage2D(GL_TEXTURE_2D, 1, internal_format, width, height);
  glBindTexture(GL_TEXTURE_2D, 0);
}

AppTexture::~AppTexture() { glDeleteTextures(1, &id_); }

void AppTexture::Upload(GLenum format, GLenum type, const void* pixels) {
  glBindTexture(GL_TEXTURE_2D, id_);
  glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
  glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, width_, height_, format, type, pixels);
  glBindTexture(GL_TEXTURE_2D, 0);
}

std::vector<float> AppTexture::ReadRgbaFloats() const {
  std::vector<float> rgba(static_cast<size_t>(width_ * height_ * 4));
  GLuint framebuffer = 0;
  glGenFramebuffers(1, &framebuffer);
  glBindFramebuffer(GL_FRAMEBUFFER, framebuffer);
  glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, id_, 0);
  glReadPixels(0, 0, width_, height_, GL_RGBA, GL_FLOAT, rgba.data());
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  glDeleteFramebuffers(1, &framebuffer);
  return rgba;
}

}  // namespace glpool::testing_util
