#include <glad/gles2.h>
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

#include <string>

#include "gpu_backend/gl/gl_context.h"

namespace glpool::gl {
namespace {

// GLFW reports errors through a callback; keep the last one for the Status.
thread_local std::string last_glfw_error;

void RecordGlfwError(int code, const char* description) {
  last_glfw_error = "GLFW error " + std::to_string(code) + ": " + (description ? description : "");
}

class GlfwContext final : public GlContext {
 public:
  explicit GlfwContext(GLFWwindow* window) : window_(window) {}
  ~GlfwContext() override {
    glfwDestroyWindow(window_);
    glfwTerminate();
  }

  Status MakeCurrent() override {
    glfwMakeContextCurrent(window_);
    if (gladLoadGLES2(reinterpret_cast<GLADloadfunc>(glfwGetProcAddress)) == 0) {
      return UnavailableError("GLFW: loading the GLES entry points failed");
    }
    return Status::Ok();
  }
  ContextKind kind() const override { return ContextKind::kWindow; }
  std::string platform() const override { return "GLFW window (EGL)"; }
  GLFWwindow* window() const override { return window_; }

 private:
  GLFWwindow* window_;
};

}  // namespace

StatusOr<std::unique_ptr<GlContext>> CreateWindowContext(const WindowOptions& options) {
  glfwSetErrorCallback(RecordGlfwError);
  last_glfw_error.clear();
  if (!glfwInit()) {
    return UnavailableError("GLFW: initialisation failed (" + last_glfw_error + "); is DISPLAY set?");
  }
  glfwDefaultWindowHints();
  glfwWindowHint(GLFW_CLIENT_API, GLFW_OPENGL_ES_API);
  glfwWindowHint(GLFW_CONTEXT_CREATION_API, GLFW_EGL_CONTEXT_API);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 1);
  glfwWindowHint(GLFW_VISIBLE, options.visible ? GLFW_TRUE : GLFW_FALSE);
  GLFWwindow* window = glfwCreateWindow(options.width, options.height, options.title.c_str(), nullptr, nullptr);
  if (window == nullptr) {
    std::string reason = last_glfw_error;
    glfwTerminate();
    return UnavailableError("GLFW: creating a GLES 3.1 window failed (" + reason + ")");
  }
  auto context = std::make_unique<GlfwContext>(window);
  GLPOOL_RETURN_IF_ERROR(context->MakeCurrent());
  GLPOOL_RETURN_IF_ERROR(CheckGles31());
  return std::unique_ptr<GlContext>(std::move(context));
}

StatusOr<std::unique_ptr<GlContext>> CreateContext(ContextKind kind, const WindowOptions& window) {
  switch (kind) {
    case ContextKind::kHeadless: return CreateHeadlessContext();
    case ContextKind::kWindow: return CreateWindowContext(window);
    case ContextKind::kAuto: {
      auto headless = CreateHeadlessContext();
      if (headless.ok()) return headless;
      auto windowed = CreateWindowContext(window);
      if (windowed.ok()) return windowed;
      return UnavailableError("no OpenGL ES 3.1 context: headless: " + headless.status().message() +
                              "; window: " + windowed.status().message());
    }
  }
  return InternalError("unknown context kind");
}

}  // namespace glpool::gl
