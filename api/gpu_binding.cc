#include "api/gpu_binding.h"

#include "gpu_backend/gl/gl_call.h"
#include "gpu_backend/gl/scoped_binding.h"
#include "shaders/embedded_shaders.h"

namespace glpool {
namespace {

bool IsTexture(GpuLayout layout) {
  return layout == GpuLayout::kRgba8Texture || layout == GpuLayout::kRgba16fTexture ||
         layout == GpuLayout::kRgba32fTexture;
}

GLenum InternalFormat(GpuLayout layout) {
  switch (layout) {
    case GpuLayout::kRgba8Texture: return GL_RGBA8;
    case GpuLayout::kRgba16fTexture: return GL_RGBA16F;
    default: return GL_RGBA32F;
  }
}

const char* FormatQualifier(GpuLayout layout) {
  switch (layout) {
    case GpuLayout::kRgba8Texture: return "rgba8";
    case GpuLayout::kRgba16fTexture: return "rgba16f";
    default: return "rgba32f";
  }
}

int CallerKind(GpuLayout layout) {
  switch (layout) {
    case GpuLayout::kNchwBuffer: return 0;
    case GpuLayout::kNhwcBuffer: return 1;
    case GpuLayout::kPhwc4Buffer: return 3;
    default: return 2;
  }
}

// Bytes the app's buffer must hold for `shape` in `layout`.
uint64_t RequiredBytes(GpuLayout layout, const Shape& shape) {
  if (layout == GpuLayout::kPhwc4Buffer) return static_cast<uint64_t>(LayoutOf(shape).texels()) * 16;
  return static_cast<uint64_t>(ElementCount(shape)) * 4;
}

uint32_t Groups(int64_t extent, int64_t local) { return static_cast<uint32_t>(std::max<int64_t>(1, (extent + local - 1) / local)); }

}  // namespace

const char* GpuLayoutName(GpuLayout layout) {
  switch (layout) {
    case GpuLayout::kPhwc4Buffer: return "PHWC4 buffer";
    case GpuLayout::kNchwBuffer: return "NCHW float buffer";
    case GpuLayout::kNhwcBuffer: return "NHWC float buffer";
    case GpuLayout::kRgba8Texture: return "RGBA8 texture";
    case GpuLayout::kRgba16fTexture: return "RGBA16F texture";
    case GpuLayout::kRgba32fTexture: return "RGBA32F texture";
  }
  return "unknown layout";
}

bool IsZeroCopy(const GpuObject& object, const ExternalTensor& tensor) {
  return object.layout == GpuLayout::kPhwc4Buffer && tensor.storage == StorageKind::kBuffer && !tensor.half;
}

Status CheckGpuObject(const std::string& tensor, const GpuObject& object, const Shape& shape,
                      const ExternalTensor& external) {
  const std::string what = "tensor '" + tensor + "' bound to a " + GpuLayoutName(object.layout) + " (GL name " +
                           std::to_string(object.gl_name) + ")";
  if (!IsTexture(object.layout)) {
    GLPOOL_GL_CALL_RETURN(const GLboolean is_buffer, glIsBuffer(object.gl_name));
    if (object.gl_name == 0 || is_buffer != GL_TRUE) return InvalidArgumentError(what + ": not a buffer");
    gl::ScopedBufferBinding binding(GL_SHADER_STORAGE_BUFFER, object.gl_name);
    GLPOOL_RETURN_IF_ERROR(binding.status());
    GLint64 size = 0;
    GLPOOL_GL_CALL(glGetBufferParameteri64v(GL_SHADER_STORAGE_BUFFER, GL_BUFFER_SIZE, &size));
    const uint64_t needed = RequiredBytes(object.layout, shape);
    if (static_cast<uint64_t>(size) < needed || (IsZeroCopy(object, external) && static_cast<uint64_t>(size) < external.bytes)) {
      return BadShapeError(what + ": holds " + std::to_string(size) + " bytes, shape " + ShapeToString(shape) +
                           " needs " + std::to_string(needed));
    }
    return Status::Ok();
  }
  GLPOOL_GL_CALL_RETURN(const GLboolean is_texture, glIsTexture(object.gl_name));
  if (object.gl_name == 0 || is_texture != GL_TRUE) return InvalidArgumentError(what + ": not a texture");
  if (shape.size() != 4 || shape[0] != 1 || shape[1] > 4) {
    return BadShapeError(what + ": textures hold 1xCxHxW tensors with C <= 4, this one is " + ShapeToString(shape));
  }
  gl::ScopedTextureBinding binding(GL_TEXTURE_2D, object.gl_name);
  GLPOOL_RETURN_IF_ERROR(binding.status());
  GLint width = 0, height = 0, format = 0, immutable = 0;
  GLPOOL_GL_CALL(glGetTexLevelParameteriv(GL_TEXTURE_2D, 0, GL_TEXTURE_WIDTH, &width));
  GLPOOL_GL_CALL(glGetTexLevelParameteriv(GL_TEXTURE_2D, 0, GL_TEXTURE_HEIGHT, &height));
  GLPOOL_GL_CALL(glGetTexLevelParameteriv(GL_TEXTURE_2D, 0, GL_TEXTURE_INTERNAL_FORMAT, &format));
  GLPOOL_GL_CALL(glGetTexParameteriv(GL_TEXTURE_2D, GL_TEXTURE_IMMUTABLE_FORMAT, &immutable));
  if (immutable != GL_TRUE) return InvalidArgumentError(what + ": needs immutable storage (glTexStorage2D)");
  if (static_cast<GLenum>(format) != InternalFormat(object.layout)) {
    return InvalidArgumentError(what + ": the texture's internal format is not " + FormatQualifier(object.layout));
  }
  if (width != shape[3] || height != shape[2]) {
    return BadShapeError(what + ": the texture is " + std::to_string(width) + "x" + std::to_string(height) +
                         ", shape " + ShapeToString(shape) + " needs " + std::to_string(shape[3]) + "x" +
                         std::to_string(shape[2]));
  }
  return Status::Ok();
}

Status ConvertGpuObject(ProgramCache& programs, const GpuObject& object, const ExternalTensor& tensor,
                        bool into_tensor) {
  TensorBinding binding;
  binding.role = into_tensor ? "out0" : "in0";
  binding.is_output = into_tensor;
  binding.storage = tensor.storage;
  binding.fp16 = tensor.half;
  binding.layout = tensor.layout;
  binding.binding = 0;
  const std::vector<std::pair<std::string, std::string>> defines = {
      {"CALLER_KIND", std::to_string(CallerKind(object.layout))}, {"CALLER_FORMAT", FormatQualifier(object.layout)}};
  GLPOOL_ASSIGN_OR_RETURN(std::string source, ShaderSource("io_convert"));
  const std::string name = "shaders/io_convert.comp";
  GLPOOL_ASSIGN_OR_RETURN(std::string assembled, AssembleKernel(name, source, defines, {binding}, {}));
  GLPOOL_ASSIGN_OR_RETURN(const gl::GlProgram* program, programs.Get(name, assembled));
  const GLenum tensor_access = into_tensor ? GL_WRITE_ONLY : GL_READ_ONLY;
  const GLenum caller_access = into_tensor ? GL_READ_ONLY : GL_WRITE_ONLY;
  if (tensor.storage == StorageKind::kBuffer) {
    GLPOOL_GL_CALL(glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, tensor.gl_name));
  } else {
    GLPOOL_GL_CALL(glBindImageTexture(0, tensor.gl_name, 0, GL_FALSE, 0, tensor_access,
                                      tensor.half ? GL_RGBA16F : GL_RGBA32F));
  }
  if (IsTexture(object.layout)) {
    GLPOOL_GL_CALL(glBindImageTexture(2, object.gl_name, 0, GL_FALSE, 0, caller_access, InternalFormat(object.layout)));
  } else {
    GLPOOL_GL_CALL(glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 2, object.gl_name));
  }
  GLPOOL_RETURN_IF_ERROR(program->Use());
  return program->Dispatch(Groups(tensor.layout.w, 8), Groups(tensor.layout.rows(), 8),
                           static_cast<uint32_t>(std::max<int64_t>(1, tensor.layout.slices())));
}

}  // namespace glpool
