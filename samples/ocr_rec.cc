#include "samples/ocr_rec.h"

#include <algorithm>
#include <cmath>

namespace glpool {
namespace {

RgbImage Blank(int64_t width, int64_t height) {
  RgbImage out;
  out.width = width;
  out.height = height;
  out.pixels.resize(static_cast<size_t>(width * height * 3));
  return out;
}

// Bilinear sample at (x, y) in pixel coordinates (centres at integers),
// edges replicated.
double SampleClamped(const RgbImage& image, double x, double y, int c) {
  x = std::clamp(x, 0.0, static_cast<double>(image.width - 1));
  y = std::clamp(y, 0.0, static_cast<double>(image.height - 1));
  const int64_t x0 = static_cast<int64_t>(x), y0 = static_cast<int64_t>(y);
  const int64_t x1 = std::min(x0 + 1, image.width - 1), y1 = std::min(y0 + 1, image.height - 1);
  const double fx = x - static_cast<double>(x0), fy = y - static_cast<double>(y0);
  const double top = image.at(x0, y0, c) * (1 - fx) + image.at(x1, y0, c) * fx;
  const double bottom = image.at(x0, y1, c) * (1 - fx) + image.at(x1, y1, c) * fx;
  return top * (1 - fy) + bottom * fy;
}

void CopyPixel(const RgbImage& from, int64_t fx, int64_t fy, RgbImage& to, int64_t tx, int64_t ty) {
  for (int c = 0; c < 3; ++c) to.pixels[static_cast<size_t>((ty * to.width + tx) * 3 + c)] = from.at(fx, fy, c);
}

}  // namespace

RgbImage CropBox(const RgbImage& image, const TextBox& box) {
  const Quad& q = box.corners;
  const int64_t width = std::max<int64_t>(1, static_cast<int64_t>(std::max(Distance(q[0], q[1]), Distance(q[2], q[3]))));
  const int64_t height = std::max<int64_t>(1, static_cast<int64_t>(std::max(Distance(q[0], q[3]), Distance(q[1], q[2]))));
  RgbImage crop = Blank(width, height);
  for (int64_t v = 0; v < height; ++v) {
    const double t = static_cast<double>(v) / static_cast<double>(height);
    for (int64_t u = 0; u < width; ++u) {
      const double s = static_cast<double>(u) / static_cast<double>(width);
      // The crop's (0, 0) is the top-left corner, (width, 0) the top-right,
      // (width, height) the bottom-right: blend the corners.
      const double x = (1 - s) * (1 - t) * q[0].x + s * (1 - t) * q[1].x + s * t * q[2].x + (1 - s) * t * q[3].x;
      const double y = (1 - s) * (1 - t) * q[0].y + s * (1 - t) * q[1].y + s * t * q[2].y + (1 - s) * t * q[3].y;
      for (int c = 0; c < 3; ++c) {
        crop.pixels[static_cast<size_t>((v * width + u) * 3 + c)] = static_cast<uint8_t>(
            std::lround(std::clamp(SampleClamped(image, x, y, c), 0.0, 255.0)));
      }
    }
  }
  if (static_cast<double>(height) < 1.5 * static_cast<double>(width)) return crop;
  // A quarter turn counter-clockwise: the crop's right column becomes the top row.
  RgbImage turned = Blank(height, width);
  for (int64_t y = 0; y < height; ++y) {
    for (int64_t x = 0; x < width; ++x) CopyPixel(crop, x, y, turned, y, width - 1 - x);
  }
  return turned;
}

RgbImage Rotate180(const RgbImage& image) {
  RgbImage out = Blank(image.width, image.height);
  for (int64_t y = 0; y < image.height; ++y) {
    for (int64_t x = 0; x < image.width; ++x) CopyPixel(image, x, y, out, image.width - 1 - x, image.height - 1 - y);
  }
  return out;
}

int64_t RecInputWidth(const std::vector<const RgbImage*>& crops, int64_t height) {
  double ratio = 320.0 / 48.0;
  for (const RgbImage* crop : crops) {
    ratio = std::max(ratio, static_cast<double>(crop->width) / static_cast<double>(crop->height));
  }
  return static_cast<int64_t>(static_cast<double>(height) * ratio);
}

TensorData LinesInput(const std::vector<const RgbImage*>& crops, int64_t height, int64_t width) {
  const int64_t count = static_cast<int64_t>(crops.size());
  std::vector<float> values(static_cast<size_t>(count * 3 * height * width), 0.0f);
  for (int64_t n = 0; n < count; ++n) {
    const RgbImage& crop = *crops[static_cast<size_t>(n)];
    const double ratio = static_cast<double>(crop.width) / static_cast<double>(crop.height);
    const int64_t resized_width =
        std::clamp<int64_t>(static_cast<int64_t>(std::ceil(static_cast<double>(height) * ratio)), 1, width);
    const RgbImage resized = ResizeImage(crop, resized_width, height);
    for (int c = 0; c < 3; ++c) {
      for (int64_t y = 0; y < height; ++y) {
        for (int64_t x = 0; x < resized_width; ++x) {
          values[static_cast<size_t>(((n * 3 + c) * height + y) * width + x)] = resized.at(x, y, 2 - c) / 127.5f - 1.0f;
        }
      }
    }
  }
  return TensorData::FromFloats({count, 3, height, width}, values);
}

Direction ReadDirection(const float* softmax, float threshold) {
  Direction direction;
  direction.degrees = softmax[1] > softmax[0] ? 180 : 0;
  direction.score = std::max(softmax[0], softmax[1]);
  direction.upside_down = direction.degrees == 180 && direction.score > threshold;
  return direction;
}

DecodedText CtcGreedyDecode(const float* probabilities, int64_t steps,
                            const std::vector<std::string>& classes) {
  DecodedText decoded;
  const int64_t count = static_cast<int64_t>(classes.size());
  double sum = 0;
  int64_t kept = 0, previous = -1;
  for (int64_t t = 0; t < steps; ++t) {
    const float* row = probabilities + t * count;
    const int64_t best = std::max_element(row, row + count) - row;
    if (best != 0 && best != previous) {
      decoded.text += classes[static_cast<size_t>(best)];
      sum += row[best];
      ++kept;
    }
    previous = best;
  }
  decoded.score = kept > 0 ? static_cast<float>(sum / static_cast<double>(kept)) : 0.0f;
  return decoded;
}

}  // namespace glpool
