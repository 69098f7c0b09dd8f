#include "samples/window_context.h"

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

#include "samples/gl_check.h"

namespace glpool::samples {
namespace {

// GLFW reports errors through a callback; keep the last one for the Status.
thread_local std::string last_glfw_error;

void RecordGlfwError(int code, const char* description) {
  last_glfw_error = "GLFW error " + std::to_string(code) + ": " + (description ? description : "");
}

}  // namespace

WindowContext::~WindowContext() {
  glfwDestroyWindow(window_);
  glfwTerminate();
}

StatusOr<std::unique_ptr<WindowContext>> WindowContext::Create(const WindowOptions& options) {
  glfwSetErrorCallback(RecordGlfwError);
  last_glfw_error.clear();
  if (!glfwInit()) return UnavailableError("GLFW: initialisation failed (" + last_glfw_error + "); is DISPLAY set?");
  glfwDefaultWindowHints();
  glfwWindowHint(GLFW_CLIENT_API, GLFW_OPENGL_ES_API);
  glfwWindowHint(GLFW_CONTEXT_CREATION_API, GLFW_EGL_CONTEXT_API);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 1);
  glfwWindowHint(GLFW_VISIBLE, options.visible ? GLFW_TRUE : GLFW_FALSE);
  GLFWwindow* window = glfwCreateWindow(options.width, options.height, options.title.c_str(), nullptr, nullptr);
  if (window == nullptr) {
    const std::string reason = last_glfw_error;
    glfwTerminate();
    return UnavailableError("GLFW: creating a GLES 3.1 window failed (" + reason + ")");
  }
  std::unique_ptr<WindowContext> context(new WindowContext(window));
  glfwMakeContextCurrent(window);
  if (gladLoadGLES2(reinterpret_cast<GLADloadfunc>(glfwGetProcAddress)) == 0) {
    return UnavailableError("GLFW: loading the GLES entry points failed");
  }
  return context;
}

}  // namespace glpool::samples
