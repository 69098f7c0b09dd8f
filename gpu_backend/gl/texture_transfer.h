// Moving float data between host memory and immutable textures.
//
// GLES has no glGetTexImage and cannot map a texture, so both directions go
// through a staging SSBO and a copy kernel (shaders/buffer_to_texture.comp,
// shaders/texture_to_buffer.comp). Data is vec4 texels, slice by slice, row
// by row: width * height * layers * 4 floats.
#pragma once

#include <vector>

#include "gpu_backend/gl/gl_buffer.h"
#include "gpu_backend/gl/gl_texture.h"

namespace glpool::gl {

// Copies a buffer of texels into the texture (whole extent).
Status CopyBufferToTexture(const GlBuffer& source, const GlTexture& destination);
// Copies the texture (whole extent) into a buffer of texels.
Status CopyTextureToBuffer(const GlTexture& source, const GlBuffer& destination);

Status UploadTexture(const GlTexture& texture, const std::vector<float>& texels);
StatusOr<std::vector<float>> DownloadTexture(const GlTexture& texture);

}  // namespace glpool::gl
