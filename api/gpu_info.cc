#include "glpool/gpu_info.h"

#include "api/current_context.h"
#include "gpu_backend/gl/gl_info.h"

namespace glpool {

StatusOr<GlInfo> QueryCurrentGlInfo() {
  GLPOOL_RETURN_IF_ERROR(LoadGlFromCurrentContext());
  return gl::QueryGlInfo();
}

}  // namespace glpool
