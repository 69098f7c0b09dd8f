// embed MODEL.onnx [IMAGE_WIDTH IMAGE_HEIGHT]
//
// What an app does to use glpool inside its own GL context: make an EGL
// context, put an "image" into its own RGBA8 texture, give glpool that
// texture as the model's input and an SSBO of its own as the output, run,
// and read its own buffer. glpool reads nothing back to the CPU on the way.
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GLES3/gl31.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <vector>

#include "glpool/glpool.h"

namespace {

int Fail(const char* step, const glpool::Status& status) {
  std::fprintf(stderr, "embed: %s: %s\n", step, status.ToString().c_str());
  return 1;
}

// The app's own headless context: Mesa's surfaceless platform, else the default display.
bool MakeAppContext() {
  auto get_platform_display =
      reinterpret_cast<PFNEGLGETPLATFORMDISPLAYEXTPROC>(eglGetProcAddress("eglGetPlatformDisplayEXT"));
  EGLDisplay display = get_platform_display
                           ? get_platform_display(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, nullptr)
                           : EGL_NO_DISPLAY;
  if (display == EGL_NO_DISPLAY) display = eglGetDisplay(EGL_DEFAULT_DISPLAY);
  if (!eglInitialize(display, nullptr, nullptr) || !eglBindAPI(EGL_OPENGL_ES_API)) return false;
  const EGLint config_attributes[] = {EGL_RENDERABLE_TYPE, EGL_OPENGL_ES3_BIT, EGL_SURFACE_TYPE, 0, EGL_NONE};
  EGLConfig config;
  EGLint count = 0;
  if (!eglChooseConfig(display, config_attributes, &config, 1, &count) || count == 0) return false;
  const EGLint context_attributes[] = {EGL_CONTEXT_MAJOR_VERSION, 3, EGL_CONTEXT_MINOR_VERSION, 1, EGL_NONE};
  EGLContext context = eglCreateContext(display, config, EGL_NO_CONTEXT, context_attributes);
  return context != EGL_NO_CONTEXT && eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, context);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: embed MODEL.onnx\n");
    return 2;
  }
  if (!MakeAppContext()) {
    std::fprintf(stderr, "embed: no OpenGL ES 3.1 context\n");
    return 1;
  }
  auto model = glpool::Model::Load(argv[1]);
  if (!model.ok()) return Fail("loading the model", model.status());
  auto session = glpool::Session::Create(*model);  // on the context current here
  if (!session.ok()) return Fail("creating the session", session.status());
  const glpool::TensorInfo input = (*session)->inputs()[0], output = (*session)->outputs()[0];
  const int height = static_cast<int>(input.shape()[2]), width = static_cast<int>(input.shape()[3]);

  // The app's image: a smooth RGB gradient, in the app's own RGBA8 texture.
  std::vector<unsigned char> pixels(static_cast<size_t>(width * height * 4));
  for (int y = 0; y < height; ++y) {
    for (int x = 0; x < width; ++x) {
      unsigned char* p = &pixels[static_cast<size_t>((y * width + x) * 4)];
      p[0] = static_cast<unsigned char>(255 * x / width);
      p[1] = static_cast<unsigned char>(255 * y / height);
      p[2] = static_cast<unsigned char>(128);
      p[3] = 255;
    }
  }
  GLuint texture = 0, buffer = 0;
  glGenTextures(1, &texture);
  glBindTexture(GL_TEXTURE_2D, texture);
  glTexStorage2D(GL_TEXTURE_2D, 1, GL_RGBA8, width, height);  // image binding needs immutable storage
  glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, width, height, GL_RGBA, GL_UNSIGNED_BYTE, pixels.data());
  // The app's output buffer: the output tensor as float32, NCHW.
  const size_t count = static_cast<size_t>(glpool::ElementCount(output.shape()));
  glGenBuffers(1, &buffer);
  glBindBuffer(GL_SHADER_STORAGE_BUFFER, buffer);
  glBufferData(GL_SHADER_STORAGE_BUFFER, static_cast<GLsizeiptr>(count * sizeof(float)), nullptr, GL_DYNAMIC_READ);

  glpool::Status bound = (*session)->BindInput(input.name, {texture, glpool::GpuLayout::kRgba8Texture});
  if (bound.ok()) bound = (*session)->BindOutput(output.name, {buffer, glpool::GpuLayout::kNchwBuffer});
  if (!bound.ok()) return Fail("binding", bound);
  const uint64_t reads_before = glpool::GetRuntimeCounters().gpu_reads;
  auto run = (*session)->Run();
  if (!run.ok()) return Fail("running", run.status());
  const uint64_t glpool_reads = glpool::GetRuntimeCounters().gpu_reads - reads_before;

  // The app reads its own buffer (glpool has already issued the barrier).
  std::vector<float> scores(count);
  glBindBuffer(GL_SHADER_STORAGE_BUFFER, buffer);
  const void* mapped = glMapBufferRange(GL_SHADER_STORAGE_BUFFER, 0, static_cast<GLsizeiptr>(count * 4), GL_MAP_READ_BIT);
  if (mapped == nullptr) return std::fprintf(stderr, "embed: mapping the output failed\n"), 1;
  std::memcpy(scores.data(), mapped, count * 4);
  glUnmapBuffer(GL_SHADER_STORAGE_BUFFER);
  const size_t best = static_cast<size_t>(std::max_element(scores.begin(), scores.end()) - scores.begin());
  std::printf("embed: %s %s -> %s %s, top class %zu (score %.4f), glpool CPU reads during Run: %llu\n",
              input.name.c_str(), glpool::ShapeToString(input.shape()).c_str(), output.name.c_str(),
              glpool::ShapeToString(output.shape()).c_str(), best, scores[best],
              static_cast<unsigned long long>(glpool_reads));
  (*session).reset();  // before the GL objects and context go
  glDeleteBuffers(1, &buffer);
  glDeleteTextures(1, &texture);
  return glpool_reads == 0 ? 0 : 1;
}
