#include "glpool/context.h"

#include "gpu_backend/gl/gl_context.h"

namespace glpool {
namespace {

// The public face of the internal headless EGL context.
class HeadlessContext final : public Context {
 public:
  explicit HeadlessContext(std::unique_ptr<gl::GlContext> context) : context_(std::move(context)) {}
  Status MakeCurrent() override { return context_->MakeCurrent(); }
  std::string platform() const override { return context_->platform(); }

 private:
  std::unique_ptr<gl::GlContext> context_;
};

}  // namespace

Context::~Context() = default;

StatusOr<std::unique_ptr<Context>> Context::CreateHeadless() {
  GLPOOL_ASSIGN_OR_RETURN(std::unique_ptr<gl::GlContext> context, gl::CreateHeadlessContext());
  return std::unique_ptr<Context>(std::make_unique<HeadlessContext>(std::move(context)));
}

}  // namespace glpool
