// The GL context a sample command runs on, by --context name: "headless"
// (glpool::Context::CreateHeadless), "window" (the samples' own GLFW
// window) or "auto" (headless, else a window). Current once made.
#pragma once

#include <memory>
#include <string>

#include "glpool/context.h"
#include "samples/window_context.h"

namespace glpool::samples {

struct SampleContext {
  std::unique_ptr<Context> headless;
  std::unique_ptr<WindowContext> window;
  std::string platform;
};

StatusOr<SampleContext> MakeSampleContext(const std::string& kind, const WindowOptions& window = {});

}  // namespace glpool::samples
