#include "gpu_backend/import/file_util.h"

#include <google/protobuf/io/coded_stream.h>

#include <climits>

#include "common/file_read.h"

namespace glpool {

StatusOr<std::string> ReadFileBytes(const std::string& path, const std::string& what) {
  return ReadWholeFile(path, what, kMaxInputFileBytes);
}

std::string DirName(const std::string& path) {
  const size_t slash = path.find_last_of('/');
  if (slash == std::string::npos) return ".";
  if (slash == 0) return "/";
  return path.substr(0, slash);
}

bool ParseProto(const std::string& bytes, google::protobuf::MessageLite* message) {
  if (bytes.size() > static_cast<size_t>(INT_MAX)) return false;
  try {
    google::protobuf::io::CodedInputStream stream(reinterpret_cast<const uint8_t*>(bytes.data()),
                                                  static_cast<int>(bytes.size()));
    stream.SetTotalBytesLimit(INT_MAX);
    return message->ParseFromCodedStream(&stream) && stream.ConsumedEntireMessage();
  } catch (...) {
    return false;
  }
}

}  // namespace glpool
