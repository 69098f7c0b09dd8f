// The GL-free steps of `glpool ocr` (samples/ocr_det, ocr_rec, ocr_models)
// on hand-made inputs: det input sizes, boxes from a probability map, line
// crops and tensors, direction, CTC decoding, the dictionary and the
// missing-model message. The networks themselves are tested end to end by
// sample_ocr.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "glpool/files.h"
#include "samples/image_input.h"
#include "samples/ocr_det.h"
#include "samples/ocr_draw.h"
#include "samples/ocr_geometry.h"
#include "samples/ocr_models.h"
#include "samples/ocr_rec.h"

namespace glpool {
namespace {

RgbImage Numbered(int64_t width, int64_t height) {
  RgbImage image;
  image.width = width;
  image.height = height;
  for (int64_t y = 0; y < height; ++y) {
    for (int64_t x = 0; x < width; ++x) {
      for (int c = 0; c < 3; ++c) image.pixels.push_back(static_cast<uint8_t>(20 * y + 3 * x + c));
    }
  }
  return image;
}

TEST(DetInputSize, SidesRoundToMultiplesOf32WithinTheLimit) {
  EXPECT_EQ(DetInputSize(669, 78), std::make_pair(int64_t{64}, int64_t{672}));    // 78/32 = 2.4, 669/32 = 20.9
  EXPECT_EQ(DetInputSize(10, 10), std::make_pair(int64_t{32}, int64_t{32}));      // never below 32
  EXPECT_EQ(DetInputSize(2000, 1000), std::make_pair(int64_t{480}, int64_t{960}));  // 0.48 x, longer side 960
  EXPECT_EQ(DetInputSize(100, 3000), std::make_pair(int64_t{960}, int64_t{32}));
}

TEST(DetInput, ImagenetMeanAndStdOnBgrOfTheResizedImage) {
  // 64 x 32 needs no resize: each value is the pixel's own.
  const RgbImage image = Numbered(64, 32);
  const TensorData tensor = DetInput(image);
  ASSERT_EQ(tensor.shape, (Shape{1, 3, 32, 64}));
  const std::vector<float> values = tensor.ToFloats();
  const float mean[3] = {0.485f, 0.456f, 0.406f}, std[3] = {0.229f, 0.224f, 0.225f};
  for (int c = 0; c < 3; ++c) {
    const int64_t x = 5, y = 7;
    const float pixel = image.at(x, y, 2 - c);  // tensor channel 0 is blue
    EXPECT_NEAR(values[static_cast<size_t>((c * 32 + y) * 64 + x)], (pixel / 255.0f - mean[c]) / std[c], 1e-5f);
  }
}

// A map_width x map_height map of `background` with rectangles of `value`.
struct Rect {
  int64_t x0, y0, x1, y1;  // inclusive
  float value;
};
std::vector<float> Map(int64_t width, int64_t height, const std::vector<Rect>& rects, float background = 0.05f) {
  std::vector<float> map(static_cast<size_t>(width * height), background);
  for (const Rect& r : rects) {
    for (int64_t y = r.y0; y <= r.y1; ++y) {
      for (int64_t x = r.x0; x <= r.x1; ++x) map[static_cast<size_t>(y * width + x)] = r.value;
    }
  }
  return map;
}

// The extremes of a box's corners.
double MinX(const TextBox& b) { return std::min({b.corners[0].x, b.corners[1].x, b.corners[2].x, b.corners[3].x}); }
double MaxX(const TextBox& b) { return std::max({b.corners[0].x, b.corners[1].x, b.corners[2].x, b.corners[3].x}); }
double MinY(const TextBox& b) { return std::min({b.corners[0].y, b.corners[1].y, b.corners[2].y, b.corners[3].y}); }
double MaxY(const TextBox& b) { return std::max({b.corners[0].y, b.corners[1].y, b.corners[2].y, b.corners[3].y}); }

TEST(BoxesFromProbabilityMap, OneRegionGrowsByTheUnclipDistanceAndScales) {
  // Region x 10..29, y 4..9 in a 40 x 16 map of an 80 x 32 image (scale 2).
  const std::vector<float> map = Map(40, 16, {{10, 4, 29, 9, 0.9f}});
  const std::vector<TextBox> boxes = BoxesFromProbabilityMap(map, 40, 16, 80, 32);
  ASSERT_EQ(boxes.size(), 1u);
  // Corners at pixel centres: 19 x 5; d = area * 1.5 / perimeter = 95 * 1.5 / 48.
  const double d = 19.0 * 5.0 * 1.5 / 48.0;
  const double left = std::llround((10 - d) * 2), right = std::llround((29 + d) * 2);
  const double top = std::llround((4 - d) * 2), bottom = std::llround((9 + d) * 2);
  const Quad& q = boxes[0].corners;
  EXPECT_EQ(q[0].x, left);
  EXPECT_EQ(q[0].y, top);
  EXPECT_EQ(q[1].x, right);
  EXPECT_EQ(q[1].y, top);
  EXPECT_EQ(q[2].x, right);
  EXPECT_EQ(q[2].y, bottom);
  EXPECT_EQ(q[3].x, left);
  EXPECT_EQ(q[3].y, bottom);
  EXPECT_FLOAT_EQ(boxes[0].score, 0.9f);
}

TEST(BoxesFromProbabilityMap, DropsFaintSmallAndBelowThresholdRegions) {
  const std::vector<float> map = Map(60, 20, {
                                                 {2, 2, 20, 8, 0.5f},    // text (> 0.3) but mean 0.5 < 0.6
                                                 {30, 2, 31, 3, 0.95f},  // 2 x 2 pixels: shorter side 1 < 3
                                                 {2, 12, 20, 18, 0.25f},  // under the pixel threshold
                                                 {30, 10, 50, 17, 0.8f},  // kept
                                             });
  const std::vector<TextBox> boxes = BoxesFromProbabilityMap(map, 60, 20, 60, 20);
  ASSERT_EQ(boxes.size(), 1u);
  EXPECT_FLOAT_EQ(boxes[0].score, 0.8f);
  EXPECT_LT(MinX(boxes[0]), 30);
  EXPECT_GT(MaxX(boxes[0]), 50);
}

TEST(BoxesFromProbabilityMap, DiagonalNeighboursJoinAndBoxesComeInReadingOrder) {
  // Line 1: two words, the right one listed first by its higher top; the
  // left word is a block and a small square touching it only at a corner
  // (8-connected: one region). Line 2 below.
  const std::vector<float> map = Map(80, 40, {
                                                 {44, 3, 70, 10, 0.9f},
                                                 {4, 5, 14, 12, 0.9f},
                                                 {15, 13, 16, 14, 0.9f},
                                                 {4, 28, 40, 35, 0.9f},
                                             });
  const std::vector<TextBox> boxes = BoxesFromProbabilityMap(map, 80, 40, 80, 40);
  ASSERT_EQ(boxes.size(), 3u);
  // The joined word, left of line 1, reaches past the small square.
  EXPECT_LT(MinX(boxes[0]), 4);
  EXPECT_GT(MaxX(boxes[0]), 16);
  EXPECT_GT(MaxY(boxes[0]), 14);
  EXPECT_GT(MinX(boxes[1]), MaxX(boxes[0]) - 5);  // the right word, after it though its top is higher
  EXPECT_LT(boxes[1].corners[0].y, boxes[0].corners[0].y);
  EXPECT_GT(MinY(boxes[2]), 20);  // line 2
}

TEST(BoxesFromProbabilityMap, ATiltedBandGetsATiltedBox) {
  // A band 7 pixels tall falling 1 pixel every 4 to the right.
  std::vector<float> map(100 * 60, 0.0f);
  for (int64_t x = 10; x < 70; ++x) {
    const int64_t centre = 20 + (x - 10) / 4;
    for (int64_t y = centre - 3; y <= centre + 3; ++y) map[static_cast<size_t>(y * 100 + x)] = 0.9f;
  }
  const std::vector<TextBox> boxes = BoxesFromProbabilityMap(map, 100, 60, 100, 60);
  ASSERT_EQ(boxes.size(), 1u);
  const Quad& q = boxes[0].corners;
  for (const auto& [from, to] : {std::pair{0, 1}, std::pair{3, 2}}) {
    const double slope = (q[to].y - q[from].y) / (q[to].x - q[from].x);
    EXPECT_NEAR(slope, 0.25, 0.04) << "side " << from << "-" << to;
  }
  // The box hugs the band: about 7 + 2 * unclip tall across it, not the
  // 22 of the band's axis-aligned bounding box.
  EXPECT_LT(Distance(q[0], q[3]), 18);
}

TEST(Geometry, HullDropsInsideAndCollinearPoints) {
  const std::vector<Point> hull = ConvexHull({{0, 0}, {2, 0}, {4, 0}, {4, 3}, {2, 1}, {0, 3}, {1, 2}, {0, 0}});
  ASSERT_EQ(hull.size(), 4u);
  for (const Point& p : hull) EXPECT_TRUE((p.x == 0 || p.x == 4) && (p.y == 0 || p.y == 3)) << p.x << "," << p.y;
}

TEST(Geometry, MinAreaRectFindsARotatedRectangle) {
  // A 20 x 6 rectangle turned 30 degrees about (50, 40), with points inside.
  const double angle = 30.0 * 3.14159265358979 / 180.0, c = std::cos(angle), s = std::sin(angle);
  std::vector<Point> points;
  for (double u : {-10.0, -3.0, 0.0, 10.0}) {
    for (double v : {-3.0, 1.0, 3.0}) points.push_back({50 + u * c - v * s, 40 + u * s + v * c});
  }
  const RotatedRect rect = MinAreaRect(ConvexHull(points));
  EXPECT_NEAR(rect.width, 20, 1e-9);
  EXPECT_NEAR(rect.height, 6, 1e-9);
  EXPECT_NEAR(rect.center.x, 50, 1e-9);
  EXPECT_NEAR(rect.center.y, 40, 1e-9);
  EXPECT_NEAR(rect.axis.x, c, 1e-9);
  EXPECT_NEAR(rect.axis.y, s, 1e-9);
  // Corners in PaddleOCR's order: top-left is the upper of the two leftmost.
  const Quad q = Corners(rect);
  EXPECT_NEAR(q[0].x, 50 - 10 * c + 3 * s, 1e-9);
  EXPECT_NEAR(q[0].y, 40 - 10 * s - 3 * c, 1e-9);
  EXPECT_NEAR(q[2].x, 50 + 10 * c - 3 * s, 1e-9);
  EXPECT_NEAR(Distance(q[0], q[1]), 20, 1e-9);
  EXPECT_NEAR(Distance(q[0], q[3]), 6, 1e-9);
  EXPECT_TRUE(InsideQuad(q, {50, 40}));
  EXPECT_TRUE(InsideQuad(q, q[2]));
  EXPECT_FALSE(InsideQuad(q, {50, 50}));
}

TextBox Box(Point tl, Point tr, Point br, Point bl) {
  TextBox box;
  box.corners = {tl, tr, br, bl};
  return box;
}

TEST(CropBox, CopiesAnUprightBoxAndTurnsTallCrops) {
  const RgbImage image = Numbered(10, 8);
  RgbImage crop = CropBox(image, Box({2, 1}, {7, 1}, {7, 4}, {2, 4}));
  ASSERT_EQ(crop.width, 5);
  ASSERT_EQ(crop.height, 3);
  for (int64_t y = 0; y < 3; ++y) {
    for (int64_t x = 0; x < 5; ++x) EXPECT_EQ(crop.at(x, y, 1), image.at(2 + x, 1 + y, 1)) << x << "," << y;
  }
  // 2 wide, 6 tall: turned a quarter counter-clockwise, so the crop's top
  // row holds the box's right column, top to bottom.
  crop = CropBox(image, Box({3, 1}, {5, 1}, {5, 7}, {3, 7}));
  ASSERT_EQ(crop.width, 6);
  ASSERT_EQ(crop.height, 2);
  for (int64_t i = 0; i < 6; ++i) {
    EXPECT_EQ(crop.at(i, 0, 0), image.at(4, 1 + i, 0)) << i;
    EXPECT_EQ(crop.at(i, 1, 0), image.at(3, 1 + i, 0)) << i;
  }
}

TEST(CropBox, SamplesATiltedBoxAlongItsSides) {
  // Numbered's values are linear in x and y (20 y + 3 x + c), so bilinear
  // sampling gives them exactly at any point: crop (u, v) must hold the
  // value at top-left + u / w * top side + v / h * left side.
  const RgbImage image = Numbered(12, 10);
  const Point tl{2, 5}, tr{8, 2}, br{9, 4}, bl{3, 7};
  const RgbImage crop = CropBox(image, Box(tl, tr, br, bl));
  ASSERT_EQ(crop.width, 6);   // |(6, -3)| = 6.7
  ASSERT_EQ(crop.height, 2);  // |(1, 2)| = 2.2
  for (int64_t v = 0; v < 2; ++v) {
    for (int64_t u = 0; u < 6; ++u) {
      const double x = tl.x + u / 6.0 * (tr.x - tl.x) + v / 2.0 * (bl.x - tl.x);
      const double y = tl.y + u / 6.0 * (tr.y - tl.y) + v / 2.0 * (bl.y - tl.y);
      EXPECT_EQ(crop.at(u, v, 2), std::lround(20 * y + 3 * x + 2)) << u << "," << v;
    }
  }
}

TEST(Rotate180, ReversesRowsAndColumns) {
  const RgbImage image = Numbered(4, 3);
  const RgbImage turned = Rotate180(image);
  for (int64_t y = 0; y < 3; ++y) {
    for (int64_t x = 0; x < 4; ++x) EXPECT_EQ(turned.at(x, y, 2), image.at(3 - x, 2 - y, 2));
  }
}

TEST(LinesInput, KeepsAspectBgrOver127Point5MinusOnePaddedWithZero) {
  // 3 x 2 at height 2 stays 3 wide in a width of 5; 8 x 2 is squeezed to 5.
  const RgbImage narrow = Numbered(3, 2), wide = Numbered(8, 2);
  EXPECT_EQ(RecInputWidth({&narrow}, 2), 13);  // 2 * 320 / 48 = 13.3
  EXPECT_EQ(RecInputWidth({&narrow, &wide}, 48), 320);  // ratios 1.5 and 4 are under 320 / 48
  const RgbImage longer = Numbered(40, 2);
  EXPECT_EQ(RecInputWidth({&narrow, &longer}, 48), 960);  // ratio 20
  const TensorData tensor = LinesInput({&narrow, &wide}, 2, 5);
  ASSERT_EQ(tensor.shape, (Shape{2, 3, 2, 5}));
  const std::vector<float> v = tensor.ToFloats();
  auto at = [&](int64_t n, int c, int64_t y, int64_t x) { return v[static_cast<size_t>(((n * 3 + c) * 2 + y) * 5 + x)]; };
  for (int c = 0; c < 3; ++c) {
    for (int64_t y = 0; y < 2; ++y) {
      for (int64_t x = 0; x < 3; ++x) EXPECT_NEAR(at(0, c, y, x), narrow.at(x, y, 2 - c) / 127.5f - 1.0f, 1e-6f);
      for (int64_t x = 3; x < 5; ++x) EXPECT_EQ(at(0, c, y, x), 0.0f) << "padding at x " << x;
    }
  }
  // The squeezed crop fills the whole width: its last column is not padding.
  EXPECT_NE(at(1, 0, 0, 4), 0.0f);
}

TEST(ReadDirection, TurnsOnlyConfident180) {
  const float confident[2] = {0.05f, 0.95f}, unsure[2] = {0.2f, 0.8f}, upright[2] = {0.99f, 0.01f};
  EXPECT_TRUE(ReadDirection(confident).upside_down);
  EXPECT_EQ(ReadDirection(confident).degrees, 180);
  EXPECT_FALSE(ReadDirection(unsure).upside_down);
  EXPECT_EQ(ReadDirection(unsure).degrees, 180);
  EXPECT_FALSE(ReadDirection(upright).upside_down);
  EXPECT_FLOAT_EQ(ReadDirection(upright).score, 0.99f);
}

TEST(CtcGreedyDecode, CollapsesRepeatsDropsBlanksAndAverages) {
  const std::vector<std::string> classes = {"", "a", "b", " "};
  // Best classes per step: a a blank a b b space blank.
  const int best[8] = {1, 1, 0, 1, 2, 2, 3, 0};
  const float p[8] = {0.9f, 0.8f, 0.7f, 0.6f, 0.5f, 0.95f, 0.7f, 0.99f};
  std::vector<float> probabilities(8 * 4, 0.0f);
  for (int t = 0; t < 8; ++t) {
    for (int k = 0; k < 4; ++k) probabilities[t * 4 + k] = (1.0f - p[t]) / 3.0f;
    probabilities[t * 4 + best[t]] = p[t];
  }
  const DecodedText decoded = CtcGreedyDecode(probabilities.data(), 8, classes);
  EXPECT_EQ(decoded.text, "aab ");
  // Kept steps: 0 (a), 3 (a), 4 (b), 6 (space).
  EXPECT_NEAR(decoded.score, (0.9f + 0.6f + 0.5f + 0.7f) / 4.0f, 1e-6f);
  std::vector<float> blanks(3 * 4, 0.0f);
  for (int t = 0; t < 3; ++t) blanks[t * 4] = 1.0f;
  EXPECT_EQ(CtcGreedyDecode(blanks.data(), 3, classes).text, "");
  EXPECT_EQ(CtcGreedyDecode(blanks.data(), 3, classes).score, 0.0f);
}

TEST(ReadOcrDictionary, BlankFirstSpaceLast) {
  const std::filesystem::path path = std::filesystem::path(::testing::TempDir()) / "ocr_dictionary_test.txt";
  std::ofstream(path, std::ios::binary) << "a\nb\r\n\xe4\xb8\x80";
  StatusOr<std::vector<std::string>> classes = ReadOcrDictionary(path.string());
  std::filesystem::remove(path);
  ASSERT_TRUE(classes.ok()) << classes.status().ToString();
  EXPECT_EQ(*classes, (std::vector<std::string>{"", "a", "b", "\xe4\xb8\x80", " "}));
}

TEST(FindOcrModels, MissingFilesAreNamedWithTheFetchCommand) {
  const std::string dir = (std::filesystem::path(::testing::TempDir()) / "no_ocr_models_here").string();
  StatusOr<OcrModelFiles> files = FindOcrModels(dir);
  ASSERT_FALSE(files.ok());
  EXPECT_EQ(files.status().code(), StatusCode::kNotFound);
  const std::string message = files.status().ToString();
  EXPECT_NE(message.find(dir + "/ch_PP-OCRv4_det_infer.onnx"), std::string::npos) << message;
  EXPECT_NE(message.find(dir + "/ppocr_keys_v1.txt"), std::string::npos) << message;
  EXPECT_NE(message.find("bash scripts/install-deps.sh"), std::string::npos) << message;
}

TEST(WriteBoxesPng, OutlinesEachBoxAndKeepsTheRest) {
  const RgbImage image = Numbered(12, 10);
  const TextBox box = Box({2, 1}, {10, 1}, {10, 9}, {2, 9});
  const std::string path = (std::filesystem::path(::testing::TempDir()) / "ocr_boxes_test.png").string();
  ASSERT_TRUE(WriteBoxesPng(image, {box}, path).ok());
  StatusOr<std::string> bytes = ReadWholeFile(path, "PNG");
  std::filesystem::remove(path);
  ASSERT_TRUE(bytes.ok()) << bytes.status().ToString();
  StatusOr<RgbImage> drawn = DecodeRgbImage(*bytes, path);
  ASSERT_TRUE(drawn.ok()) << drawn.status().ToString();
  ASSERT_EQ(drawn->width, 12);
  ASSERT_EQ(drawn->height, 10);
  auto green = [&](int64_t x, int64_t y) {
    return drawn->at(x, y, 0) == 0 && drawn->at(x, y, 1) == 200 && drawn->at(x, y, 2) == 0;
  };
  // Each side, 2 pixels wide (a dot up and left of each point on it).
  for (int64_t x = 2; x <= 9; ++x) EXPECT_TRUE(green(x, 0) && green(x, 1) && green(x, 8) && green(x, 9)) << x;
  for (int64_t y = 1; y <= 8; ++y) EXPECT_TRUE(green(1, y) && green(2, y) && green(9, y) && green(10, y)) << y;
  // Inside and outside the outline the image is as it was.
  for (const auto& [x, y] : {std::pair{5, 5}, std::pair{3, 3}, std::pair{8, 7}, std::pair{0, 5}, std::pair{11, 5}}) {
    for (int c = 0; c < 3; ++c) EXPECT_EQ(drawn->at(x, y, c), image.at(x, y, c)) << x << "," << y;
  }
}

TEST(WriteBoxesPng, AnUnwritablePathIsAnErrorNamingIt) {
  const Status written = WriteBoxesPng(Numbered(4, 4), {}, "/nonexistent-dir/boxes.png");
  ASSERT_FALSE(written.ok());
  EXPECT_NE(written.ToString().find("/nonexistent-dir/boxes.png"), std::string::npos) << written.ToString();
}

}  // namespace
}  // namespace glpool
