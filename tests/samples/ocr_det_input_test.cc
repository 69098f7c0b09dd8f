// glpool ocr's det input matches the one scripts/ppocr-cases.py prepares as
// PaddleOCR's inference does (PIL resize, ImageNet mean/std on B, G, R),
// on the same rendered line: the C++ preprocessing replicates the script's.
// Needs the ppocr cases (the `ppocr` fixture); fails naming them if absent.
#include <gtest/gtest.h>

#include <cmath>
#include <iostream>
#include <filesystem>
#include <string>

#include "glpool/files.h"
#include "samples/image_input.h"
#include "samples/model_input.h"
#include "samples/ocr_det.h"

namespace glpool {
namespace {

TEST(OcrDetInput, MatchesPaddleOcrPreprocessingOfTheRenderedLine) {
  const std::filesystem::path cases(GLPOOL_PPOCR_CASES_DIR);
  const std::string image_path = (cases / "line.png").string();
  const std::string tensor_path = (cases / "det" / "test_data_set_0" / "input_0.pb").string();
  StatusOr<std::string> bytes = ReadWholeFile(image_path, "image");
  ASSERT_TRUE(bytes.ok()) << bytes.status().ToString() << " (made by scripts/ppocr-cases.py, the ppocr_cases test)";
  StatusOr<RgbImage> image = DecodeRgbImage(*bytes, image_path);
  ASSERT_TRUE(image.ok()) << image.status().ToString();
  const TensorData ours = DetInput(*image);
  StatusOr<TensorData> theirs = LoadModelInput(tensor_path, {"x", DataType::kFloat32, ours.shape});
  ASSERT_TRUE(theirs.ok()) << theirs.status().ToString() << " (our det input is " << ShapeToString(ours.shape) << ")";
  const std::vector<float> a = ours.ToFloats(), b = theirs->ToFloats();
  ASSERT_EQ(a.size(), b.size());
  // Both resize 8-bit pixels and round, so one level (1 / 255 / 0.225 =
  // 0.0174 after the std) is expected everywhere. Near glyph edges they
  // differ more: the script resizes with PIL, which filters over a wider
  // support when shrinking (78 -> 64 rows here), while PaddleOCR's OpenCV
  // and glpool interpolate bilinearly. A wrong mean, std or channel order
  // moves every value by 0.35 or more; a wrong size fails above.
  constexpr double kLevel = 1.0 / 255.0 / 0.225 * 1.01;
  double total = 0;
  size_t within_a_level = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    const double diff = std::fabs(static_cast<double>(a[i]) - b[i]);
    total += diff;
    if (diff <= kLevel) ++within_a_level;
  }
  const double mean = total / static_cast<double>(a.size());
  const double share = static_cast<double>(within_a_level) / static_cast<double>(a.size());
  EXPECT_LE(mean, 0.02) << "mean |difference|";
  EXPECT_GE(share, 0.9) << "share of values within one 8-bit level (93.6% when written)";
  std::cout << "det input " << ShapeToString(ours.shape) << ": mean |diff| " << mean << ", " << share * 100
            << "% within one level\n";
}

}  // namespace
}  // namespace glpool
