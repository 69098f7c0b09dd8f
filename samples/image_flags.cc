#include "samples/image_flags.h"

#include "glpool/files.h"

namespace glpool {

void AddImageFlags(CLI::App& command, ImageFlags& flags) {
  command.add_option("--resize", flags.resize,
                     "How an image meets the input's H x W: stretch, keep-aspect (fit inside, top-left, the rest "
                     "0) or crop (cover, centre cut)")
      ->capture_default_str();
  command.add_option("--mean", flags.mean,
                     "Per-channel mean of pixel/255 to subtract, in the tensor's channel order (B,G,R with "
                     "--channels bgr), e.g. 0.485,0.456,0.406");
  command.add_option("--std", flags.std, "Per-channel std to divide by after the mean, same order, e.g. 0.229,0.224,0.225");
  command.add_option("--channels", flags.channels, "Channel order of the tensor: rgb or bgr")->capture_default_str();
}

StatusOr<ImagePreprocess> ImagePreprocessFromFlags(const ImageFlags& flags) {
  return ParseImagePreprocess(flags.resize, flags.mean, flags.std, flags.channels);
}

StatusOr<std::vector<std::string>> ReadLabels(const std::string& path) {
  constexpr uint64_t kMaxLabelsBytes = uint64_t{1} << 24;
  GLPOOL_ASSIGN_OR_RETURN(const std::string text, ReadWholeFile(path, "labels", kMaxLabelsBytes));
  std::vector<std::string> labels;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    std::string line = text.substr(start, end - start);
    if (!line.empty() && line.back() == '\r') line.pop_back();
    labels.push_back(line);
    start = end + 1;
  }
  if (labels.empty()) return InvalidArgumentError("labels file " + path + " holds no line");
  return labels;
}

}  // namespace glpool
