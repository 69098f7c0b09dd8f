#include "samples/image_preprocess.h"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace glpool {
namespace {

StatusOr<std::array<float, 3>> ParseTriple(const std::string& text, const std::string& flag,
                                           std::array<float, 3> fallback) {
  if (text.empty()) return fallback;
  // getline drops a trailing empty item: "1,2,3," would pass as three.
  if (text.back() == ',') {
    return InvalidArgumentError(flag + " '" + text + "': ends with a comma; expected three numbers, one per channel");
  }
  std::array<float, 3> values{};
  std::stringstream in(text);
  std::string item;
  size_t count = 0;
  while (std::getline(in, item, ',')) {
    char* end = nullptr;
    const float value = std::strtof(item.c_str(), &end);
    if (item.empty() || end != item.c_str() + item.size() || !std::isfinite(value)) {
      return InvalidArgumentError(flag + " '" + text + "': '" + item + "' is not a number");
    }
    if (count < 3) values[count] = value;
    ++count;
  }
  if (count != 3) {
    return InvalidArgumentError(flag + " '" + text + "': expected three numbers, one per channel (R,G,B order " +
                                "unless --channels bgr)");
  }
  return values;
}

// Bilinear sample of channel c at (x, y) in source pixel coordinates
// (pixel centres at integers), edges clamped.
float Sample(const RgbImage& image, float x, float y, int c) {
  x = std::min(std::max(x, 0.0f), static_cast<float>(image.width - 1));
  y = std::min(std::max(y, 0.0f), static_cast<float>(image.height - 1));
  const int64_t x0 = static_cast<int64_t>(x), y0 = static_cast<int64_t>(y);
  const int64_t x1 = std::min(x0 + 1, image.width - 1), y1 = std::min(y0 + 1, image.height - 1);
  const float fx = x - static_cast<float>(x0), fy = y - static_cast<float>(y0);
  // a + (b - a) * f rather than a * (1 - f) + b * f: the latter rounds 255
  // and 255 to 255.00002, a pixel value just above 1 after scaling.
  const auto lerp = [](float a, float b, float f) { return a + (b - a) * f; };
  const float top = lerp(image.at(x0, y0, c), image.at(x1, y0, c), fx);
  const float bottom = lerp(image.at(x0, y1, c), image.at(x1, y1, c), fx);
  return std::min(255.0f, std::max(0.0f, lerp(top, bottom, fy)));
}

}  // namespace

StatusOr<ImagePreprocess> ParseImagePreprocess(const std::string& resize, const std::string& mean,
                                               const std::string& std, const std::string& channels) {
  ImagePreprocess p;
  if (resize == "stretch") {
    p.resize = ResizeMode::kStretch;
  } else if (resize == "keep-aspect") {
    p.resize = ResizeMode::kKeepAspect;
  } else if (resize == "crop") {
    p.resize = ResizeMode::kCrop;
  } else {
    return InvalidArgumentError("--resize '" + resize + "': expected stretch, keep-aspect or crop");
  }
  GLPOOL_ASSIGN_OR_RETURN(p.mean, ParseTriple(mean, "--mean", p.mean));
  GLPOOL_ASSIGN_OR_RETURN(p.std, ParseTriple(std, "--std", p.std));
  for (float s : p.std) {
    if (s == 0.0f) return InvalidArgumentError("--std '" + std + "': a channel's std is 0");
  }
  if (channels != "rgb" && channels != "bgr") {
    return InvalidArgumentError("--channels '" + channels + "': expected rgb or bgr");
  }
  p.bgr = channels == "bgr";
  return p;
}

TensorData ImageToTensor(const RgbImage& image, const Shape& shape, const ImagePreprocess& p) {
  const int64_t n = shape[0], out_h = shape[2], out_w = shape[3];
  std::vector<float> values(static_cast<size_t>(ElementCount(shape)), 0.0f);
  // The region of the tensor the image covers and the scale into it.
  const double sx_fit = static_cast<double>(out_w) / image.width, sy_fit = static_cast<double>(out_h) / image.height;
  double scale_x = sx_fit, scale_y = sy_fit;
  int64_t region_w = out_w, region_h = out_h;
  double offset_x = 0, offset_y = 0;  // source pixels cut off at the left / top (crop)
  if (p.resize == ResizeMode::kKeepAspect) {
    scale_x = scale_y = std::min(sx_fit, sy_fit);
    region_w = std::min<int64_t>(out_w, std::max<int64_t>(1, std::llround(image.width * scale_x)));
    region_h = std::min<int64_t>(out_h, std::max<int64_t>(1, std::llround(image.height * scale_y)));
    scale_x = static_cast<double>(region_w) / image.width;
    scale_y = static_cast<double>(region_h) / image.height;
  } else if (p.resize == ResizeMode::kCrop) {
    scale_x = scale_y = std::max(sx_fit, sy_fit);
    offset_x = (image.width - out_w / scale_x) / 2;
    offset_y = (image.height - out_h / scale_y) / 2;
  }
  for (int64_t y = 0; y < region_h; ++y) {
    const float sy = static_cast<float>((y + 0.5) / scale_y - 0.5 + offset_y);
    for (int64_t x = 0; x < region_w; ++x) {
      const float sx = static_cast<float>((x + 0.5) / scale_x - 0.5 + offset_x);
      for (int c = 0; c < 3; ++c) {
        const int source = p.bgr ? 2 - c : c;
        const float v = (Sample(image, sx, sy, source) / 255.0f - p.mean[c]) / p.std[c];
        for (int64_t b = 0; b < n; ++b) values[static_cast<size_t>(((b * 3 + c) * out_h + y) * out_w + x)] = v;
      }
    }
  }
  return TensorData::FromFloats(shape, values);
}

RgbImage ResizeImage(const RgbImage& image, int64_t width, int64_t height) {
  RgbImage out;
  out.width = width;
  out.height = height;
  out.pixels.resize(static_cast<size_t>(width * height * 3));
  const double scale_x = static_cast<double>(width) / image.width, scale_y = static_cast<double>(height) / image.height;
  for (int64_t y = 0; y < height; ++y) {
    const float sy = static_cast<float>((y + 0.5) / scale_y - 0.5);
    for (int64_t x = 0; x < width; ++x) {
      const float sx = static_cast<float>((x + 0.5) / scale_x - 0.5);
      for (int c = 0; c < 3; ++c) {
        out.pixels[static_cast<size_t>((y * width + x) * 3 + c)] =
            static_cast<uint8_t>(std::lround(std::min(255.0f, std::max(0.0f, Sample(image, sx, sy, c)))));
      }
    }
  }
  return out;
}

}  // namespace glpool
