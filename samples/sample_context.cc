#include "samples/sample_context.h"

#include "samples/gl_check.h"

namespace glpool::samples {
namespace {

StatusOr<SampleContext> Headless() {
  GLPOOL_ASSIGN_OR_RETURN(std::unique_ptr<Context> context, Context::CreateHeadless());
  SampleContext made;
  made.platform = context->platform();
  made.headless = std::move(context);
  GLPOOL_RETURN_IF_ERROR(LoadGl());  // the samples' own GL calls (overlay, info)
  return made;
}

StatusOr<SampleContext> Window(const WindowOptions& options) {
  GLPOOL_ASSIGN_OR_RETURN(std::unique_ptr<WindowContext> window, WindowContext::Create(options));
  SampleContext made;
  made.platform = WindowContext::platform();
  made.window = std::move(window);
  return made;
}

}  // namespace

StatusOr<SampleContext> MakeSampleContext(const std::string& kind, const WindowOptions& window) {
  if (kind == "headless") return Headless();
  if (kind == "window") return Window(window);
  if (kind == "auto") {
    StatusOr<SampleContext> headless = Headless();
    if (headless.ok()) return headless;
    StatusOr<SampleContext> windowed = Window(window);
    if (windowed.ok()) return windowed;
    return UnavailableError("no OpenGL ES 3.1 context: headless: " + headless.status().message() +
                            "; window: " + windowed.status().message());
  }
  return InvalidArgumentError("unknown context kind '" + kind + "' (expected headless, window or auto)");
}

}  // namespace glpool::samples
