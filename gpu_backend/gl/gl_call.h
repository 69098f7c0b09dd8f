// Checked GL calls.
//
// Every GL call in glpool goes through GLPOOL_GL_CALL (or its value-returning
// twin), which reads glGetError right after the call and, on failure, returns
// a kGlError Status naming the call, the error and the file:line.
#pragma once

#include <glad/gles2.h>

#include <string>

#include "common/status.h"

namespace glpool::gl {

const char* GlErrorName(GLenum error);

// Drains glGetError; on any error returns a Status naming `call`, file, line.
Status CheckGlError(const char* call, const char* file, int line);

}  // namespace glpool::gl

// GLPOOL_GL_CALL(glBindBuffer(GL_SHADER_STORAGE_BUFFER, id));
#define GLPOOL_GL_CALL(call)                                                  \
  do {                                                                        \
    call;                                                                     \
    GLPOOL_RETURN_IF_ERROR(::glpool::gl::CheckGlError(#call, __FILE__, __LINE__)); \
  } while (0)

// GLPOOL_GL_CALL_RETURN(GLuint shader, glCreateShader(GL_COMPUTE_SHADER));
#define GLPOOL_GL_CALL_RETURN(lhs, call)                                      \
  lhs = call;                                                                 \
  GLPOOL_RETURN_IF_ERROR(::glpool::gl::CheckGlError(#call, __FILE__, __LINE__))
