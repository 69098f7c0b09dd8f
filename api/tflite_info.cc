#include "glpool/files.h"
#include "glpool/tflite.h"
#include "gpu_backend/import/tflite/tflite_import.h"

namespace glpool {

StatusOr<std::string> DescribeTfliteFile(const std::string& path) {
  GLPOOL_ASSIGN_OR_RETURN(std::string bytes, ReadWholeFile(path, "model"));
  return DescribeTfliteModel(bytes, path);
}

}  // namespace glpool
