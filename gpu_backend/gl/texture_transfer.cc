#include "gpu_backend/gl/texture_transfer.h"

#include <algorithm>

#include "gpu_backend/gl/embedded_program.h"
#include "gpu_backend/gl/gl_call.h"
#include "shaders/embedded_shaders.h"

namespace glpool::gl {
namespace {

uint64_t TexelCount(const GlTexture& texture) {
  return uint64_t{texture.width()} * texture.height() * texture.layers();
}

Status CheckBufferFits(const GlTexture& texture, const GlBuffer& buffer) {
  if (buffer.bytes() < TexelCount(texture) * 4 * sizeof(float)) {
    return InternalError("a " + std::to_string(buffer.bytes()) + "-byte buffer cannot hold the texture's " +
                         std::to_string(TexelCount(texture)) + " texels");
  }
  return Status::Ok();
}

Status DispatchOverTexture(const GlProgram& program, const GlTexture& texture) {
  GLPOOL_RETURN_IF_ERROR(program.SetIvec4("u_extent", static_cast<GLint>(texture.width()),
                                          static_cast<GLint>(texture.height()),
                                          static_cast<GLint>(texture.layers()), 0));
  return program.Dispatch((texture.width() + 7) / 8, (texture.height() + 7) / 8, texture.layers());
}

const char* IsArray(const GlTexture& texture) { return texture.kind() == TextureKind::k2DArray ? "1" : "0"; }

// The program for an embedded shader: from `programs` when given (kept by
// the caller), else compiled into `owned`.
StatusOr<const GlProgram*> TransferProgram(const std::string& name, const ShaderDefines& defines,
                                           const ProgramSource& programs, GlProgram* owned) {
  if (!programs) {
    GLPOOL_ASSIGN_OR_RETURN(*owned, ProgramFromEmbedded(name, defines));
    return owned;
  }
  GLPOOL_ASSIGN_OR_RETURN(std::string source, ShaderSource(name));
  return programs("shaders/" + name + ".comp", WithDefines(source, defines));
}

}  // namespace

Status CopyBufferToTexture(const GlBuffer& source, const GlTexture& destination, const ProgramSource& programs) {
  GLPOOL_RETURN_IF_ERROR(CheckBufferFits(destination, source));
  GlProgram owned;
  GLPOOL_ASSIGN_OR_RETURN(const GlProgram* program,
                          TransferProgram("buffer_to_texture", {{"IMAGE_FORMAT", TextureFormatName(destination.format())},
                                                                {"IS_ARRAY", IsArray(destination)},
                                                                {"HALF_IMAGE", destination.format() == TextureFormat::kRgba16F
                                                                                   ? "1" : "0"}},
                                          programs, &owned));
  GLPOOL_RETURN_IF_ERROR(source.BindToIndex(0));
  GLPOOL_RETURN_IF_ERROR(destination.BindAsImage(0, GL_WRITE_ONLY));
  GLPOOL_RETURN_IF_ERROR(DispatchOverTexture(*program, destination));
  GLPOOL_GL_CALL(glMemoryBarrier(GL_SHADER_IMAGE_ACCESS_BARRIER_BIT | GL_TEXTURE_FETCH_BARRIER_BIT));
  return Status::Ok();
}

Status CopyTextureToBuffer(const GlTexture& source, const GlBuffer& destination, const ProgramSource& programs) {
  GLPOOL_RETURN_IF_ERROR(CheckBufferFits(source, destination));
  GlProgram owned;
  GLPOOL_ASSIGN_OR_RETURN(const GlProgram* program,
                          TransferProgram("texture_to_buffer", {{"IS_ARRAY", IsArray(source)}}, programs, &owned));
  GLPOOL_RETURN_IF_ERROR(source.BindAsSampler(0));
  GLPOOL_RETURN_IF_ERROR(program->SetInt("source", 0));
  GLPOOL_RETURN_IF_ERROR(destination.BindToIndex(0));
  GLPOOL_RETURN_IF_ERROR(DispatchOverTexture(*program, source));
  GLPOOL_GL_CALL(glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT | GL_BUFFER_UPDATE_BARRIER_BIT));
  return Status::Ok();
}

Status UploadTexture(const GlTexture& texture, const std::vector<float>& texels, const ProgramSource& programs) {
  if (texels.size() != TexelCount(texture) * 4) {
    return InvalidArgumentError("uploading " + std::to_string(texels.size()) + " floats into a texture of " +
                                std::to_string(TexelCount(texture) * 4));
  }
  GLPOOL_ASSIGN_OR_RETURN(GlBuffer staging, GlBuffer::CreateWithData(texels.data(), texels.size() * sizeof(float)));
  return CopyBufferToTexture(staging, texture, programs);
}

StatusOr<std::vector<float>> DownloadTexture(const GlTexture& texture, const ProgramSource& programs) {
  GLPOOL_ASSIGN_OR_RETURN(GlBuffer staging, GlBuffer::Create(TexelCount(texture) * 4 * sizeof(float)));
  GLPOOL_RETURN_IF_ERROR(CopyTextureToBuffer(texture, staging, programs));
  return staging.ReadAll<float>();
}

Status UploadTextureRows(const GlTexture& texture, const std::vector<float>& texels, uint64_t width, uint64_t rows,
                         const ProgramSource& programs) {
  const uint64_t texture_rows = uint64_t{texture.height()} * texture.layers();
  if (width > texture.width() || rows > texture_rows || texels.size() != width * rows * 4) {
    return InternalError("UploadTextureRows: " + std::to_string(rows) + " rows of " + std::to_string(width) +
                         " texels do not fit a " + std::to_string(texture.width()) + "x" +
                         std::to_string(texture_rows) + " texture");
  }
  if (width == texture.width() && rows == texture_rows) return UploadTexture(texture, texels, programs);
  std::vector<float> extent(texture.width() * texture_rows * 4, 0.0f);
  for (uint64_t row = 0; row < rows; ++row) {
    std::copy_n(texels.begin() + static_cast<std::ptrdiff_t>(row * width * 4), width * 4,
                extent.begin() + static_cast<std::ptrdiff_t>(row * texture.width() * 4));
  }
  return UploadTexture(texture, extent, programs);
}

}  // namespace glpool::gl
