#include <glad/egl.h>
#include <glad/gles2.h>

#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "gpu_backend/gl/gl_context.h"

namespace glpool::gl {
namespace {

std::string EglErrorName(EGLint error) {
  switch (error) {
    case EGL_SUCCESS: return "EGL_SUCCESS";
    case EGL_NOT_INITIALIZED: return "EGL_NOT_INITIALIZED";
    case EGL_BAD_ACCESS: return "EGL_BAD_ACCESS";
    case EGL_BAD_ALLOC: return "EGL_BAD_ALLOC";
    case EGL_BAD_ATTRIBUTE: return "EGL_BAD_ATTRIBUTE";
    case EGL_BAD_CONFIG: return "EGL_BAD_CONFIG";
    case EGL_BAD_CONTEXT: return "EGL_BAD_CONTEXT";
    case EGL_BAD_DISPLAY: return "EGL_BAD_DISPLAY";
    case EGL_BAD_MATCH: return "EGL_BAD_MATCH";
    case EGL_BAD_PARAMETER: return "EGL_BAD_PARAMETER";
    case EGL_BAD_SURFACE: return "EGL_BAD_SURFACE";
    default: return "EGL error 0x" + [&] { char b[16]; snprintf(b, sizeof b, "%x", error); return std::string(b); }();
  }
}

Status EglFailure(const std::string& step) {
  return UnavailableError("EGL: " + step + " failed (" + EglErrorName(eglGetError()) + ")");
}

bool HasExtension(const char* list, const char* name) {
  if (list == nullptr) return false;
  const size_t len = std::strlen(name);
  for (const char* p = list; (p = std::strstr(p, name)) != nullptr; p += len) {
    const bool starts = p == list || p[-1] == ' ';
    const bool ends = p[len] == ' ' || p[len] == '\0';
    if (starts && ends) return true;
  }
  return false;
}

class EglContext final : public GlContext {
 public:
  EglContext(EGLDisplay display, EGLContext context, std::string platform)
      : display_(display), context_(context), platform_(std::move(platform)) {}
  ~EglContext() override {
    eglMakeCurrent(display_, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    eglDestroyContext(display_, context_);
    eglTerminate(display_);
  }

  Status MakeCurrent() override {
    if (!eglMakeCurrent(display_, EGL_NO_SURFACE, EGL_NO_SURFACE, context_)) {
      return EglFailure("eglMakeCurrent");
    }
    if (gladLoadGLES2(reinterpret_cast<GLADloadfunc>(eglGetProcAddress)) == 0) {
      return UnavailableError("EGL: loading the GLES entry points failed");
    }
    return Status::Ok();
  }
  ContextKind kind() const override { return ContextKind::kHeadless; }
  std::string platform() const override { return platform_; }

 private:
  EGLDisplay display_;
  EGLContext context_;
  std::string platform_;
};

// Before a display exists glad knows only the client extensions, so the EGL
// 1.5 entry point may be missing while the EXT one is there.
EGLDisplay GetPlatformDisplay(EGLenum platform, void* native_display) {
  if (eglGetPlatformDisplay != nullptr) return eglGetPlatformDisplay(platform, native_display, nullptr);
  if (eglGetPlatformDisplayEXT != nullptr) return eglGetPlatformDisplayEXT(platform, native_display, nullptr);
  return EGL_NO_DISPLAY;
}

struct DisplayChoice {
  EGLDisplay display = EGL_NO_DISPLAY;
  std::string platform;
};

// A hardware EGL device (NVIDIA's headless path) when there is one; Mesa's
// software device is skipped so the surfaceless platform names it instead.
DisplayChoice HardwareDeviceDisplay(const char* client_extensions) {
  if (!HasExtension(client_extensions, "EGL_EXT_platform_device") ||
      eglQueryDevicesEXT == nullptr || eglQueryDeviceStringEXT == nullptr) {
    return {};
  }
  EGLDeviceEXT devices[16];
  EGLint count = 0;
  if (!eglQueryDevicesEXT(16, devices, &count)) return {};
  for (EGLint i = 0; i < count; ++i) {
    const char* extensions = eglQueryDeviceStringEXT(devices[i], EGL_EXTENSIONS);
    if (HasExtension(extensions, "EGL_MESA_device_software")) continue;
    EGLDisplay display = GetPlatformDisplay(EGL_PLATFORM_DEVICE_EXT, devices[i]);
    if (display == EGL_NO_DISPLAY) continue;
    EGLint major = 0, minor = 0;
    if (eglInitialize(display, &major, &minor)) return {display, "EGL device " + std::to_string(i)};
  }
  return {};
}

StatusOr<DisplayChoice> ChooseDisplay() {
  // An explicit EGL_PLATFORM is the user's choice; the default display honours it.
  if (const char* forced = std::getenv("EGL_PLATFORM"); forced != nullptr && *forced != '\0') {
    EGLDisplay display = eglGetDisplay(EGL_DEFAULT_DISPLAY);
    if (display == EGL_NO_DISPLAY) {
      return UnavailableError(std::string("EGL: no display for EGL_PLATFORM=") + forced);
    }
    EGLint major = 0, minor = 0;
    if (!eglInitialize(display, &major, &minor)) {
      return EglFailure(std::string("eglInitialize with EGL_PLATFORM=") + forced);
    }
    return DisplayChoice{display, std::string("EGL default display (EGL_PLATFORM=") + forced + ")"};
  }
  const char* client_extensions = eglQueryString(EGL_NO_DISPLAY, EGL_EXTENSIONS);
  if (DisplayChoice device = HardwareDeviceDisplay(client_extensions); device.display != EGL_NO_DISPLAY) {
    return device;
  }
  if (HasExtension(client_extensions, "EGL_MESA_platform_surfaceless")) {
    EGLDisplay display = GetPlatformDisplay(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY);
    EGLint major = 0, minor = 0;
    if (display != EGL_NO_DISPLAY && eglInitialize(display, &major, &minor)) {
      return DisplayChoice{display, "EGL surfaceless (Mesa)"};
    }
    return EglFailure("initialising Mesa's surfaceless platform");
  }
  return UnavailableError("EGL: neither a device nor the surfaceless platform is available");
}

}  // namespace

StatusOr<std::unique_ptr<GlContext>> CreateHeadlessContext() {
  // First load: client functions only, enough to pick a display.
  if (gladLoaderLoadEGL(EGL_NO_DISPLAY) == 0) {
    return UnavailableError("EGL: libEGL could not be loaded");
  }
  GLPOOL_ASSIGN_OR_RETURN(DisplayChoice choice, ChooseDisplay());
  // Second load: the display's extensions and EGL 1.5 entry points.
  if (gladLoaderLoadEGL(choice.display) == 0) {
    eglTerminate(choice.display);
    return UnavailableError("EGL: loading display entry points failed");
  }
  auto fail = [&](const std::string& step) {
    Status status = EglFailure(step);
    eglTerminate(choice.display);
    return status;
  };
  if (!eglBindAPI(EGL_OPENGL_ES_API)) return fail("eglBindAPI(EGL_OPENGL_ES_API)");
  const char* display_extensions = eglQueryString(choice.display, EGL_EXTENSIONS);
  if (!HasExtension(display_extensions, "EGL_KHR_surfaceless_context")) {
    eglTerminate(choice.display);
    return UnavailableError("EGL: the display lacks EGL_KHR_surfaceless_context");
  }
  const EGLint config_attributes[] = {EGL_RENDERABLE_TYPE, EGL_OPENGL_ES3_BIT, EGL_SURFACE_TYPE, 0, EGL_NONE};
  EGLConfig config = nullptr;
  EGLint config_count = 0;
  if (!eglChooseConfig(choice.display, config_attributes, &config, 1, &config_count)) {
    return fail("eglChooseConfig");
  }
  if (config_count == 0) {
    eglTerminate(choice.display);
    return UnavailableError("EGL: no OpenGL ES 3 config on " + choice.platform);
  }
  const EGLint context_attributes[] = {EGL_CONTEXT_MAJOR_VERSION, 3, EGL_CONTEXT_MINOR_VERSION, 1, EGL_NONE};
  EGLContext context = eglCreateContext(choice.display, config, EGL_NO_CONTEXT, context_attributes);
  if (context == EGL_NO_CONTEXT) return fail("eglCreateContext (OpenGL ES 3.1)");
  auto result = std::make_unique<EglContext>(choice.display, context, choice.platform);
  GLPOOL_RETURN_IF_ERROR(result->MakeCurrent());
  GLPOOL_RETURN_IF_ERROR(CheckGles31());
  return std::unique_ptr<GlContext>(std::move(result));
}

}  // namespace glpool::gl
