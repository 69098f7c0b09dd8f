// The samples' own GL plumbing, as any app using glpool has its own: glad
// loads GLES entry points from the current context, and every sample GL
// call is checked by SAMPLE_GL_CALL, which returns a Status naming the
// call, file and line. glpool's internal GL layer is not used here.
#pragma once

#include <glad/gles2.h>

#include "glpool/status.h"

namespace glpool::samples {

// Loads the GLES entry points of the context current on this thread.
Status LoadGl();

// Drains glGetError; on any error a kGlError Status naming `call`.
Status CheckGl(const char* call, const char* file, int line);

}  // namespace glpool::samples

#define SAMPLE_GL_CALL(call)                                                    \
  do {                                                                          \
    call;                                                                       \
    GLPOOL_RETURN_IF_ERROR(::glpool::samples::CheckGl(#call, __FILE__, __LINE__)); \
  } while (0)

#define SAMPLE_GL_CALL_RETURN(lhs, call) \
  lhs = call;                            \
  GLPOOL_RETURN_IF_ERROR(::glpool::samples::CheckGl(#call, __FILE__, __LINE__))
