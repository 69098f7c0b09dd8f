// `glpool ocr`'s pipeline on the public API: PP-OCR det -> boxes -> crop ->
// cls (turn upside-down lines) -> rec -> text, each network in its own
// Session on the GL context current when Create() is called. A session is
// reshaped for each new input size (the det input follows the image, the
// rec input each line's width); shapes seen before are reused.
#pragma once

#include <iosfwd>
#include <memory>
#include <string>
#include <vector>

#include "glpool/model.h"
#include "glpool/options.h"
#include "glpool/session.h"
#include "samples/ocr_det.h"
#include "samples/ocr_models.h"
#include "samples/ocr_rec.h"

namespace glpool {

struct OcrLine {
  TextBox box;
  Direction direction;
  DecodedText text;
};

struct OcrResult {
  std::vector<OcrLine> lines;  // reading order; lines whose text score is under drop_score left out
  size_t dropped = 0;          // boxes left out for their text score
  Shape det_shape;             // the det input's shape
  double det_ms = 0, cls_ms = 0, rec_ms = 0, total_ms = 0;  // each stage's wall time, all its boxes
};

struct OcrOptions {
  ObjectKind objects = ObjectKind::kBuffers;
  Precision precision = Precision::kFp32;
  int64_t limit_side = 960;  // det input's longer side at most
  DetPostprocess det;
  bool use_cls = true;
  float drop_score = 0.5f;   // PaddleOCR's: lines read with less confidence are noise
  size_t batch = 6;          // lines per cls / rec run (PaddleOCR's rec_batch_num)
};

class OcrPipeline {
 public:
  // Loads the three models and the dictionary (errors name the file) and
  // checks the recogniser's classes match the dictionary.
  static StatusOr<std::unique_ptr<OcrPipeline>> Create(const OcrModelFiles& files, const OcrOptions& options);

  // Reads `image`; stage-by-stage progress goes to `progress` (each stage can
  // take seconds on a software GL). Lines go through cls and rec in batches
  // of `batch`, each padded to its widest line, as PaddleOCR batches them.
  StatusOr<OcrResult> Read(const RgbImage& image, std::ostream& progress);

 private:
  // One network and its session, reshaped to each input it is given.
  struct Network {
    std::string path;
    std::unique_ptr<Model> model;
    std::unique_ptr<Session> session;
  };
  StatusOr<TensorData> RunNetwork(Network& network, const TensorData& input);

  OcrOptions options_;
  Network det_, cls_, rec_;
  std::vector<std::string> classes_;
};

}  // namespace glpool
