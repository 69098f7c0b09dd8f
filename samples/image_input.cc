#include "samples/image_input.h"

#include <algorithm>
#include <climits>
#include <vector>

#include "glpool/files.h"
#include "samples/jpeg_check.h"

// Only the formats image_input.h promises. Each other stb_image decoder is
// more code reading hostile bytes: Debian's version overflows a signed int
// parsing a PNM header of ten digits (tests/fuzz/regressions/image/), and
// PSD, PIC, HDR, TGA and GIF add more such parsers nobody asked for.
// stb_image trusts sizes inside the file: a PNG chunk claiming 1 GiB makes
// it reserve that much before finding the file is 100 bytes long. Every
// allocation goes through a cap that DecodeImageInput sets from what the
// image can legitimately need (its pixels at 16 bits per channel, plus the
// file itself); past it, stb gets NULL and fails with "outofmem".
#include <cstdint>
#include <cstdlib>
namespace {
// Outside DecodeImageInput stb_image reads trusted files (tests decode the
// PNGs the overlay writes), so the cap is off there; DecodeImageInput holds
// it from its first stb call to its return (AllocationCap).
thread_local size_t g_stb_allocation_cap = SIZE_MAX;
struct AllocationCap {
  AllocationCap() { g_stb_allocation_cap = 0; }
  ~AllocationCap() { g_stb_allocation_cap = SIZE_MAX; }
};
void* CappedMalloc(size_t size) { return size > g_stb_allocation_cap ? nullptr : std::malloc(size); }
void* CappedRealloc(void* p, size_t size) { return size > g_stb_allocation_cap ? nullptr : std::realloc(p, size); }
}  // namespace
#define STBI_MALLOC(size) CappedMalloc(size)
#define STBI_REALLOC(p, size) CappedRealloc(p, size)
#define STBI_FREE(p) std::free(p)
#define STBI_ONLY_PNG
#define STBI_ONLY_JPEG
#define STBI_ONLY_BMP
#define STB_IMAGE_IMPLEMENTATION
#define STBI_FAILURE_USERMSG
#include <stb_image.h>

namespace glpool {

StatusOr<std::pair<int64_t, int64_t>> ImageSize(const std::string& bytes, const std::string& label) {
  if (bytes.size() > static_cast<size_t>(INT_MAX)) {
    return InvalidArgumentError("image input " + label + ": " + std::to_string(bytes.size()) +
                                " bytes, more than stb_image reads");
  }
  int width = 0, height = 0, channels = 0;
  if (!stbi_info_from_memory(reinterpret_cast<const stbi_uc*>(bytes.data()), static_cast<int>(bytes.size()), &width,
                             &height, &channels) ||
      width <= 0 || height <= 0) {
    return InvalidArgumentError("reading image " + label + ": " + stbi_failure_reason());
  }
  return std::make_pair(static_cast<int64_t>(width), static_cast<int64_t>(height));
}

StatusOr<RgbImage> DecodeRgbImage(const std::string& bytes, const std::string& label, uint64_t max_pixels) {
  if (bytes.size() > static_cast<size_t>(INT_MAX)) {
    return InvalidArgumentError("image input " + label + ": " + std::to_string(bytes.size()) +
                                " bytes, more than stb_image reads");
  }
  GLPOOL_RETURN_IF_ERROR(CheckJpegHuffmanTables(bytes, label));
  const AllocationCap cap;  // stb allocations fail until the cap is raised for the decode below
  const auto* data = reinterpret_cast<const stbi_uc*>(bytes.data());
  const int size = static_cast<int>(bytes.size());
  int width = 0, height = 0, channels = 0;
  if (!stbi_info_from_memory(data, size, &width, &height, &channels)) {
    return InvalidArgumentError("reading image " + label + ": " + stbi_failure_reason());
  }
  if (width <= 0 || height <= 0 || static_cast<uint64_t>(width) * static_cast<uint64_t>(height) > max_pixels) {
    return InvalidArgumentError("reading image " + label + ": " + std::to_string(width) + "x" +
                                std::to_string(height) + " pixels, more than the limit of " +
                                std::to_string(max_pixels));
  }
  g_stb_allocation_cap = static_cast<size_t>(width) * static_cast<size_t>(height) * 8 + 2 * bytes.size() + 65536;
  unsigned char* pixels = stbi_load_from_memory(data, size, &width, &height, &channels, 3);
  if (pixels == nullptr) return InvalidArgumentError("reading image " + label + ": " + stbi_failure_reason());
  RgbImage image;
  image.width = width;
  image.height = height;
  image.pixels.assign(pixels, pixels + static_cast<size_t>(width) * static_cast<size_t>(height) * 3);
  stbi_image_free(pixels);
  return image;
}

StatusOr<RgbImage> LoadRgbImageFile(const std::string& path) {
  GLPOOL_ASSIGN_OR_RETURN(const std::string bytes, ReadWholeFile(path, "image", kMaxImageFileBytes));
  return DecodeRgbImage(bytes, path);
}

StatusOr<TensorData> DecodeImageInput(const std::string& bytes, const std::string& label, const InputSpec& input,
                                      const ImagePreprocess& preprocess, uint64_t max_pixels) {
  if (input.shape.size() != 4 || input.shape[1] != 3) {
    return InvalidArgumentError("image input " + label + ": the model input '" + input.name + "' has shape " +
                                ShapeToString(input.shape) + ", not Nx3xHxW");
  }
  GLPOOL_ASSIGN_OR_RETURN(const RgbImage image, DecodeRgbImage(bytes, label, max_pixels));
  return ImageToTensor(image, input.shape, preprocess);
}

}  // namespace glpool
