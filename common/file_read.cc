#include "common/file_read.h"

#include <sys/stat.h>

#include <cerrno>
#include <cstring>
#include <fstream>

namespace glpool {

StatusOr<std::string> ReadWholeFile(const std::string& path, const std::string& what, uint64_t max_bytes) {
  struct stat info {};
  if (::stat(path.c_str(), &info) != 0) {
    return NotFoundError(what + " " + path + ": cannot open file (" + std::strerror(errno) + ")");
  }
  if (S_ISDIR(info.st_mode)) return InvalidArgumentError(what + " " + path + ": is a directory, not a file");
  if (!S_ISREG(info.st_mode)) {
    return InvalidArgumentError(what + " " + path + ": is not a regular file (a device, pipe or socket)");
  }
  const uint64_t size = static_cast<uint64_t>(info.st_size);
  if (size > max_bytes) {
    return InvalidArgumentError(what + " " + path + ": " + std::to_string(size) + " bytes, more than the " +
                                std::to_string(max_bytes) + "-byte limit for " + what + " files");
  }
  std::ifstream file(path, std::ios::binary);
  if (!file) return NotFoundError(what + " " + path + ": cannot open file");
  std::string bytes(static_cast<size_t>(size), '\0');
  file.read(bytes.data(), static_cast<std::streamsize>(size));
  // A file that shrank while being read is an error; one that grew is read
  // up to the size it had, which stays within the limit.
  if (static_cast<uint64_t>(file.gcount()) != size) {
    return InvalidArgumentError(what + " " + path + ": read " + std::to_string(file.gcount()) + " of " +
                                std::to_string(size) + " bytes (changed while reading?)");
  }
  return bytes;
}

}  // namespace glpool
