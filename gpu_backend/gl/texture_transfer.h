// Moving float data between host memory and immutable textures.
//
// GLES has no glGetTexImage and cannot map a texture, so both directions go
// through a staging SSBO and a copy kernel (shaders/buffer_to_texture.comp,
// shaders/texture_to_buffer.comp). Data is vec4 texels, slice by slice, row
// by row: width * height * layers * 4 floats.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "gpu_backend/gl/gl_buffer.h"
#include "gpu_backend/gl/gl_shader.h"
#include "gpu_backend/gl/gl_texture.h"

namespace glpool::gl {

// Where the copy kernels come from: given a name ("shaders/x.comp") and the
// full source, a program that stays valid for the caller's use (the
// runtime's ProgramCache, so each variant compiles once per context).
// Empty: each call compiles its own program.
using ProgramSource = std::function<StatusOr<const GlProgram*>(const std::string& name, const std::string& source)>;

// Copies a buffer of texels into the texture (whole extent).
Status CopyBufferToTexture(const GlBuffer& source, const GlTexture& destination, const ProgramSource& programs = {});
// Copies the texture (whole extent) into a buffer of texels.
Status CopyTextureToBuffer(const GlTexture& source, const GlBuffer& destination, const ProgramSource& programs = {});

Status UploadTexture(const GlTexture& texture, const std::vector<float>& texels, const ProgramSource& programs = {});
// Uploads `rows` rows of `width` texels into the first columns of the
// texture's first rows (layers after one another); the rest of the texture
// is zeroed. For a tensor in a pooled texture larger than itself.
Status UploadTextureRows(const GlTexture& texture, const std::vector<float>& texels, uint64_t width, uint64_t rows,
                         const ProgramSource& programs = {});
StatusOr<std::vector<float>> DownloadTexture(const GlTexture& texture, const ProgramSource& programs = {});

}  // namespace glpool::gl
