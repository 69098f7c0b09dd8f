// Image preprocessing of `glpool run --input IMAGE` (samples/image_preprocess,
// samples/image_flags): flag parsing, each resize mode on small synthetic
// images whose expected values the tests compute by hand from the pixels,
// channel order, and the labels file.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "samples/image_flags.h"
#include "samples/image_preprocess.h"

namespace glpool {
namespace {

// A width x height image whose channel c at (x, y) is value(x, y, c).
template <typename F>
RgbImage MakeImage(int64_t width, int64_t height, F value) {
  RgbImage image;
  image.width = width;
  image.height = height;
  image.pixels.resize(static_cast<size_t>(width * height * 3));
  for (int64_t y = 0; y < height; ++y) {
    for (int64_t x = 0; x < width; ++x) {
      for (int c = 0; c < 3; ++c) {
        image.pixels[static_cast<size_t>((y * width + x) * 3 + c)] = static_cast<uint8_t>(value(x, y, c));
      }
    }
  }
  return image;
}

// Distinct values per pixel and channel, so a misplaced read shows.
int Pattern(int64_t x, int64_t y, int c) { return static_cast<int>(10 + 25 * x + 7 * y + 3 * c); }

// Element (c, y, x) of batch item b of an N x 3 x H x W tensor.
float At(const std::vector<float>& values, const Shape& shape, int64_t b, int c, int64_t y, int64_t x) {
  return values[static_cast<size_t>(((b * shape[1] + c) * shape[2] + y) * shape[3] + x)];
}

ImagePreprocess Parsed(const std::string& resize, const std::string& mean = "", const std::string& std = "",
                       const std::string& channels = "rgb") {
  StatusOr<ImagePreprocess> p = ParseImagePreprocess(resize, mean, std, channels);
  EXPECT_TRUE(p.ok()) << p.status().ToString();
  return p.ok() ? *p : ImagePreprocess{};
}

std::string ParseError(const std::string& resize, const std::string& mean, const std::string& std,
                       const std::string& channels) {
  StatusOr<ImagePreprocess> p = ParseImagePreprocess(resize, mean, std, channels);
  EXPECT_FALSE(p.ok()) << "accepted resize '" << resize << "' mean '" << mean << "' std '" << std
                       << "' channels '" << channels << "'";
  if (p.ok()) return "";
  EXPECT_EQ(p.status().code(), StatusCode::kInvalidArgument);
  return p.status().message();
}

TEST(ParseImagePreprocess, DefaultsAreStretchRgbInZeroOne) {
  const ImagePreprocess p = Parsed("stretch");
  EXPECT_EQ(p.resize, ResizeMode::kStretch);
  EXPECT_FALSE(p.bgr);
  for (int c = 0; c < 3; ++c) {
    EXPECT_EQ(p.mean[c], 0.0f);
    EXPECT_EQ(p.std[c], 1.0f);
  }
}

TEST(ParseImagePreprocess, ReadsEveryFlag) {
  const ImagePreprocess p = Parsed("keep-aspect", "0.485,0.456,0.406", "0.229, 0.224,0.225", "bgr");
  EXPECT_EQ(p.resize, ResizeMode::kKeepAspect);
  EXPECT_TRUE(p.bgr);
  EXPECT_FLOAT_EQ(p.mean[0], 0.485f);
  EXPECT_FLOAT_EQ(p.mean[2], 0.406f);
  EXPECT_FLOAT_EQ(p.std[1], 0.224f);
  EXPECT_EQ(Parsed("crop").resize, ResizeMode::kCrop);
}

TEST(ParseImagePreprocess, ErrorsNameTheFlag) {
  std::string message = ParseError("fit", "", "", "rgb");
  EXPECT_NE(message.find("--resize 'fit'"), std::string::npos) << message;
  EXPECT_NE(message.find("keep-aspect"), std::string::npos) << message;

  message = ParseError("stretch", "0.5,0.5", "", "rgb");
  EXPECT_NE(message.find("--mean '0.5,0.5'"), std::string::npos) << message;
  EXPECT_NE(message.find("three numbers"), std::string::npos) << message;
  message = ParseError("stretch", "0.5,0.5,0.5,0.5", "", "rgb");
  EXPECT_NE(message.find("--mean"), std::string::npos) << message;
  message = ParseError("stretch", "0.5,x,0.5", "", "rgb");
  EXPECT_NE(message.find("--mean"), std::string::npos) << message;
  EXPECT_NE(message.find("'x' is not a number"), std::string::npos) << message;
  message = ParseError("stretch", "0.5,,0.5", "", "rgb");
  EXPECT_NE(message.find("--mean"), std::string::npos) << message;
  // A trailing comma is a missing fourth number or a typo, not three numbers.
  message = ParseError("stretch", "0.5,0.5,0.5,", "", "rgb");
  EXPECT_NE(message.find("--mean"), std::string::npos) << message;
  message = ParseError("stretch", "", "1,nan,1", "rgb");
  EXPECT_NE(message.find("--std"), std::string::npos) << message;

  message = ParseError("stretch", "", "0.2,0,0.2", "rgb");
  EXPECT_NE(message.find("--std '0.2,0,0.2'"), std::string::npos) << message;
  EXPECT_NE(message.find("is 0"), std::string::npos) << message;

  message = ParseError("stretch", "", "", "rgba");
  EXPECT_NE(message.find("--channels 'rgba'"), std::string::npos) << message;
}

TEST(ImageToTensor, SameSizeIsPixelOver255ThenMeanAndStd) {
  const RgbImage image = MakeImage(3, 2, Pattern);
  const ImagePreprocess p = Parsed("stretch", "0.1,0.2,0.3", "0.5,0.25,2");
  const Shape shape = {2, 3, 2, 3};
  const std::vector<float> values = ImageToTensor(image, shape, p).ToFloats();
  const float mean[3] = {0.1f, 0.2f, 0.3f}, std[3] = {0.5f, 0.25f, 2.0f};
  for (int64_t b = 0; b < 2; ++b) {
    for (int c = 0; c < 3; ++c) {
      for (int64_t y = 0; y < 2; ++y) {
        for (int64_t x = 0; x < 3; ++x) {
          EXPECT_NEAR(At(values, shape, b, c, y, x), (Pattern(x, y, c) / 255.0f - mean[c]) / std[c], 1e-5f)
              << "batch " << b << " c " << c << " y " << y << " x " << x;
        }
      }
    }
  }
}

TEST(ImageToTensor, StretchHalvesByAveragingPairsAndDoublesByQuarters) {
  // 4 x 1 -> 2 x 1: half-pixel centres land between source pixels 0|1 and 2|3.
  const RgbImage wide = MakeImage(4, 1, Pattern);
  const Shape half = {1, 3, 1, 2};
  std::vector<float> values = ImageToTensor(wide, half, Parsed("stretch")).ToFloats();
  for (int c = 0; c < 3; ++c) {
    for (int64_t x = 0; x < 2; ++x) {
      const float expected = (Pattern(2 * x, 0, c) + Pattern(2 * x + 1, 0, c)) / 2.0f / 255.0f;
      EXPECT_NEAR(At(values, half, 0, c, 0, x), expected, 1e-5f) << "c " << c << " x " << x;
    }
  }
  // 1 x 2 -> 1 x 4 (doubling the height only): centres at -0.25 (the edge),
  // 0.25, 0.75, 1.25 (the edge).
  const RgbImage tall = MakeImage(1, 2, Pattern);
  const Shape doubled = {1, 3, 4, 1};
  values = ImageToTensor(tall, doubled, Parsed("stretch")).ToFloats();
  for (int c = 0; c < 3; ++c) {
    const float top = Pattern(0, 0, c) / 255.0f, bottom = Pattern(0, 1, c) / 255.0f;
    const float expected[4] = {top, 0.75f * top + 0.25f * bottom, 0.25f * top + 0.75f * bottom, bottom};
    for (int64_t y = 0; y < 4; ++y) EXPECT_NEAR(At(values, doubled, 0, c, y, 0), expected[y], 1e-5f) << "y " << y;
  }
}

TEST(ImageToTensor, WhiteStaysExactlyOneAtEveryScale) {
  // Blending equal neighbours must give them back: 255 * (1 - f) + 255 * f
  // rounds above 255 for some f, a value above 1 that no image holds (the
  // image fuzz target found it with a white 6 x 11 BMP).
  const RgbImage white = MakeImage(6, 11, [](int64_t, int64_t, int) { return 255; });
  for (int64_t h = 1; h <= 16; ++h) {
    for (int64_t w = 1; w <= 8; ++w) {
      const Shape shape = {1, 3, h, w};
      for (const char* resize : {"stretch", "crop"}) {
        for (float v : ImageToTensor(white, shape, Parsed(resize)).ToFloats()) {
          ASSERT_EQ(v, 1.0f) << resize << " to " << h << " x " << w;
        }
      }
    }
  }
}

TEST(ImageToTensor, KeepAspectPlacesTopLeftAndPadsWithZeroAfterMeanAndStd) {
  // 4 x 2 into 4 x 4: scale 1, the image fills rows 0-1, rows 2-3 are 0
  // (not (0 - mean) / std: PaddleOCR pads the normalised tensor).
  const RgbImage wide = MakeImage(4, 2, Pattern);
  const ImagePreprocess p = Parsed("keep-aspect", "0.5,0.5,0.5", "0.25,0.25,0.25");
  const Shape square = {1, 3, 4, 4};
  std::vector<float> values = ImageToTensor(wide, square, p).ToFloats();
  for (int c = 0; c < 3; ++c) {
    for (int64_t y = 0; y < 4; ++y) {
      for (int64_t x = 0; x < 4; ++x) {
        const float expected = y < 2 ? (Pattern(x, y, c) / 255.0f - 0.5f) / 0.25f : 0.0f;
        EXPECT_NEAR(At(values, square, 0, c, y, x), expected, 1e-5f) << "c " << c << " y " << y << " x " << x;
      }
    }
  }
  // 2 x 4 into 4 x 4: columns 0-1 hold the image, 2-3 are 0.
  const RgbImage tall = MakeImage(2, 4, Pattern);
  values = ImageToTensor(tall, square, p).ToFloats();
  for (int c = 0; c < 3; ++c) {
    for (int64_t y = 0; y < 4; ++y) {
      for (int64_t x = 0; x < 4; ++x) {
        const float expected = x < 2 ? (Pattern(x, y, c) / 255.0f - 0.5f) / 0.25f : 0.0f;
        EXPECT_NEAR(At(values, square, 0, c, y, x), expected, 1e-5f) << "c " << c << " y " << y << " x " << x;
      }
    }
  }
  // 8 x 2 into 4 x 4: one factor (1/2) for both axes, so 4 x 1 at the top:
  // each value the mean of a 2 x 2 block.
  const RgbImage big = MakeImage(8, 2, Pattern);
  values = ImageToTensor(big, square, Parsed("keep-aspect")).ToFloats();
  for (int c = 0; c < 3; ++c) {
    for (int64_t x = 0; x < 4; ++x) {
      const float block = (Pattern(2 * x, 0, c) + Pattern(2 * x + 1, 0, c) + Pattern(2 * x, 1, c) +
                           Pattern(2 * x + 1, 1, c)) / 4.0f / 255.0f;
      EXPECT_NEAR(At(values, square, 0, c, 0, x), block, 1e-5f) << "c " << c << " x " << x;
      for (int64_t y = 1; y < 4; ++y) EXPECT_EQ(At(values, square, 0, c, y, x), 0.0f) << "y " << y << " x " << x;
    }
  }
}

TEST(ImageToTensor, CropCutsTheCentre) {
  // 6 x 2 into 2 x 2: scale 1 covers the height, columns 2-3 are the centre.
  const RgbImage wide = MakeImage(6, 2, Pattern);
  const Shape square = {1, 3, 2, 2};
  std::vector<float> values = ImageToTensor(wide, square, Parsed("crop")).ToFloats();
  for (int c = 0; c < 3; ++c) {
    for (int64_t y = 0; y < 2; ++y) {
      for (int64_t x = 0; x < 2; ++x) {
        EXPECT_NEAR(At(values, square, 0, c, y, x), Pattern(x + 2, y, c) / 255.0f, 1e-5f)
            << "c " << c << " y " << y << " x " << x;
      }
    }
  }
  // 2 x 6: rows 2-3.
  const RgbImage tall = MakeImage(2, 6, Pattern);
  values = ImageToTensor(tall, square, Parsed("crop")).ToFloats();
  for (int c = 0; c < 3; ++c) {
    for (int64_t y = 0; y < 2; ++y) {
      for (int64_t x = 0; x < 2; ++x) {
        EXPECT_NEAR(At(values, square, 0, c, y, x), Pattern(x, y + 2, c) / 255.0f, 1e-5f)
            << "c " << c << " y " << y << " x " << x;
      }
    }
  }
  // 8 x 4 into 2 x 2: scale 1/2 covers the height; the centre 4 x 4 of the
  // source halves to 2 x 2, each value the mean of a 2 x 2 block.
  const RgbImage big = MakeImage(8, 4, Pattern);
  values = ImageToTensor(big, square, Parsed("crop")).ToFloats();
  for (int c = 0; c < 3; ++c) {
    for (int64_t y = 0; y < 2; ++y) {
      for (int64_t x = 0; x < 2; ++x) {
        const int64_t sx = 2 + 2 * x, sy = 2 * y;
        const float block = (Pattern(sx, sy, c) + Pattern(sx + 1, sy, c) + Pattern(sx, sy + 1, c) +
                             Pattern(sx + 1, sy + 1, c)) / 4.0f / 255.0f;
        EXPECT_NEAR(At(values, square, 0, c, y, x), block, 1e-5f) << "c " << c << " y " << y << " x " << x;
      }
    }
  }
}

TEST(ImageToTensor, BgrPutsBlueFirstAndMeanFollowsTheTensorOrder) {
  // Pure colours: red 200, green 100, blue 50.
  const RgbImage image = MakeImage(2, 2, [](int64_t, int64_t, int c) { return c == 0 ? 200 : c == 1 ? 100 : 50; });
  const Shape shape = {1, 3, 2, 2};
  const std::vector<float> values = ImageToTensor(image, shape, Parsed("stretch", "0.1,0.2,0.3", "", "bgr")).ToFloats();
  EXPECT_NEAR(At(values, shape, 0, 0, 1, 1), 50 / 255.0f - 0.1f, 1e-5f);   // blue, mean[0]
  EXPECT_NEAR(At(values, shape, 0, 1, 0, 1), 100 / 255.0f - 0.2f, 1e-5f);  // green
  EXPECT_NEAR(At(values, shape, 0, 2, 1, 0), 200 / 255.0f - 0.3f, 1e-5f);  // red, mean[2]
}

class LabelsFile : public ::testing::Test {
 protected:
  std::string Write(const std::string& name, const std::string& text) {
    const std::filesystem::path path = std::filesystem::path(::testing::TempDir()) / name;
    std::ofstream(path, std::ios::binary) << text;
    written_.push_back(path);
    return path.string();
  }
  void TearDown() override {
    for (const auto& path : written_) std::filesystem::remove(path);
  }
  std::vector<std::filesystem::path> written_;
};

TEST_F(LabelsFile, OneLabelPerLineCrlfToo) {
  StatusOr<std::vector<std::string>> labels = ReadLabels(Write("labels_test_ok.txt", "tench\r\ngoldfish\ngreat white shark\n"));
  ASSERT_TRUE(labels.ok()) << labels.status().ToString();
  EXPECT_EQ(*labels, (std::vector<std::string>{"tench", "goldfish", "great white shark"}));
}

TEST_F(LabelsFile, EmptyAndMissingFilesAreErrorsNamingThePath) {
  const std::string empty = Write("labels_test_empty.txt", "");
  StatusOr<std::vector<std::string>> labels = ReadLabels(empty);
  ASSERT_FALSE(labels.ok());
  EXPECT_NE(labels.status().ToString().find(empty), std::string::npos) << labels.status().ToString();

  const std::string missing = (std::filesystem::path(::testing::TempDir()) / "labels_test_missing.txt").string();
  labels = ReadLabels(missing);
  ASSERT_FALSE(labels.ok());
  EXPECT_EQ(labels.status().code(), StatusCode::kNotFound);
  EXPECT_NE(labels.status().ToString().find(missing), std::string::npos) << labels.status().ToString();
}

}  // namespace
}  // namespace glpool
