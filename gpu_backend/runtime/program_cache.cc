#include "gpu_backend/runtime/program_cache.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <iterator>
#include <set>
#include <sys/stat.h>
#include <unistd.h>

#include "gpu_backend/gl/gl_call.h"

namespace glpool {
namespace {

// File layout: magic, format version, GL binary format, a second hash of the
// key (catches a file renamed or a collision of the first), payload size,
// payload. All little-endian on the machines glpool targets.
constexpr char kMagic[4] = {'G', 'L', 'P', 'B'};
constexpr uint32_t kFileVersion = 1;

struct Header {
  char magic[4];
  uint32_t version;
  uint32_t format;
  uint32_t reserved;
  uint64_t check;
  uint64_t size;
};

uint64_t Fnv1a(const std::string& text, uint64_t seed) {
  uint64_t hash = seed;
  for (unsigned char c : text) {
    hash ^= c;
    hash *= 1099511628211ull;
  }
  return hash;
}

std::string Hex(uint64_t value) {
  char text[17];
  std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(value));
  return text;
}

std::string GlString(GLenum name) {
  const GLubyte* text = glGetString(name);
  return text ? reinterpret_cast<const char*>(text) : "";
}

}  // namespace

Status ProgramCache::SetBinaryDirectory(const std::string& dir) {
  binary_dir_.clear();
  if (dir.empty()) return Status::Ok();
  GLint formats = 0;
  GLPOOL_GL_CALL(glGetIntegerv(GL_NUM_PROGRAM_BINARY_FORMATS, &formats));
  // A driver without binary formats cannot restore programs: compile always.
  if (formats <= 0) return Status::Ok();
  driver_ = GlString(GL_VENDOR) + "\n" + GlString(GL_RENDERER) + "\n" + GlString(GL_VERSION);
  GLPOOL_RETURN_IF_ERROR(gl::CheckGlError("glGetString", __FILE__, __LINE__));
  mkdir(dir.c_str(), 0755);  // may exist already; a real failure shows when files do not open
  binary_dir_ = dir;
  return Status::Ok();
}

ProgramCache::DiskKey ProgramCache::KeyOf(const std::string& source) const {
  const std::string key = driver_ + "\n" + source;
  const uint64_t first = Fnv1a(key, 14695981039346656037ull);
  const uint64_t check = Fnv1a(key, 0x9e3779b97f4a7c15ull);
  return {binary_dir_.empty() ? "" : binary_dir_ + "/" + Hex(first) + ".glpb", check};
}

StatusOr<gl::GlProgram> ProgramCache::Restore(const std::string& name, const DiskKey& key) const {
  if (key.path.empty()) return UnavailableError("no program cache directory");
  std::ifstream in(key.path, std::ios::binary);
  Header header{};
  if (in.read(reinterpret_cast<char*>(&header), sizeof header) && std::memcmp(header.magic, kMagic, 4) == 0 &&
      header.version == kFileVersion && header.check == key.check && header.size > 0 && header.size < (1u << 30)) {
    std::vector<uint8_t> binary(header.size);
    if (in.read(reinterpret_cast<char*>(binary.data()), static_cast<std::streamsize>(binary.size()))) {
      return gl::GlProgram::FromBinary(name, header.format, binary);
    }
  }
  return UnavailableError("no stored binary of " + name);
}

void ProgramCache::Store(const DiskKey& key, const gl::GlProgram& program) const {
  if (key.path.empty()) return;
  GLenum format = 0;
  StatusOr<std::vector<uint8_t>> binary = program.Binary(&format);
  if (!binary.ok()) return;  // the program still runs; it is compiled again next time
  Header header{};
  std::memcpy(header.magic, kMagic, 4);
  header.version = kFileVersion;
  header.format = format;
  header.check = key.check;
  header.size = binary->size();
  // Written under a private name, then renamed: a reader never sees half a file.
  const std::string temp = key.path + ".tmp" + std::to_string(getpid());
  std::ofstream out(temp, std::ios::binary);
  out.write(reinterpret_cast<const char*>(&header), sizeof header);
  out.write(reinterpret_cast<const char*>(binary->data()), static_cast<std::streamsize>(binary->size()));
  out.close();
  if (out) {
    std::rename(temp.c_str(), key.path.c_str());
  } else {
    std::remove(temp.c_str());
  }
}

Status ProgramCache::Prepare(const std::vector<std::pair<std::string, std::string>>& programs) {
  if (!parallel_compile_asked_ && GLAD_GL_KHR_parallel_shader_compile) {
    // As many compiler threads as the driver will use.
    GLPOOL_GL_CALL(glMaxShaderCompilerThreadsKHR(0xFFFFFFFFu));
    parallel_compile_asked_ = true;
  }
  struct Pending {
    const std::string* source;
    DiskKey key;
    gl::GlShader shader;
    gl::GlProgram program;
  };
  std::vector<Pending> pending;
  std::set<std::string> seen;
  for (const auto& [name, source] : programs) {
    if (programs_.count(source) || !seen.insert(source).second) continue;
    // GLPOOL_DUMP_SHADERS=1 prints every assembled kernel once, for debugging.
    if (const char* dump = std::getenv("GLPOOL_DUMP_SHADERS"); dump != nullptr && *dump == '1') {
      std::cerr << "// ---- " << name << "\n" << source << "\n";
    }
    const DiskKey key = KeyOf(source);
    StatusOr<gl::GlProgram> restored = Restore(name, key);
    if (restored.ok()) {
      programs_.emplace(source, std::move(restored).value());
      continue;
    }
    // A link asked for before its compile is checked runs when the compile
    // is done (and fails if it failed: the compile's log is reported first).
    GLPOOL_ASSIGN_OR_RETURN(gl::GlShader shader, gl::GlShader::StartCompute(name, source));
    GLPOOL_ASSIGN_OR_RETURN(gl::GlProgram program, gl::GlProgram::StartLink(shader));
    pending.push_back({&source, key, std::move(shader), std::move(program)});
  }
  for (Pending& p : pending) {
    GLPOOL_RETURN_IF_ERROR(p.shader.CheckCompiled());
    GLPOOL_RETURN_IF_ERROR(p.program.FinishLink(p.shader));
    Store(p.key, p.program);
    programs_.emplace(*p.source, std::move(p.program));
  }
  return Status::Ok();
}

StatusOr<const gl::GlProgram*> ProgramCache::Get(const std::string& name, const std::string& source) {
  if (!programs_.count(source)) GLPOOL_RETURN_IF_ERROR(Prepare({{name, source}}));
  return &programs_.at(source);
}

}  // namespace glpool
