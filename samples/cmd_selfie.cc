// glpool selfie IMAGE [--model square|landscape|FILE.tflite] [--out blend.png]
//                     [--mask-png mask.png] [--objects K] [--precision P]
//                     [--overlay [--frames N]] [--overlay-png FILE]
// Cuts the person out of a photo with MediaPipe's selfie segmentation
// network (npm package @mediapipe/selfie_segmentation) on the GPU: the
// mask blended over the photo as a PNG, and how much of the photo it covers.
#include <chrono>
#include <cmath>
#include <iostream>

#include "samples/commands.h"
#include "samples/image_input.h"
#include "samples/model_loading.h"
#include "samples/npm_models.h"
#include "samples/overlay/overlay_command.h"
#include "samples/rgb_drawing.h"
#include "samples/sample_context.h"
#include "samples/selfie_segmenter.h"

namespace glpool {
namespace {

struct SelfieFlags {
  std::string image;
  std::string model = "square";  // square, landscape, or a .tflite path
  std::string out;
  std::string mask_png;
  std::string objects = "buffers";
  std::string precision = "fp32";
  bool overlay = false;     // the pool overlay in a window, the blend beside it
  std::string overlay_png;  // the same, rendered off-screen to this PNG
  int frames = 0;
};

// --overlay / --overlay-png: the network in the pool overlay, with the mask
// blended over the photo as the visual output.
int ShowSelfieOverlay(const SelfieFlags& flags, const std::string& path, const RgbImage& image,
                      const SessionOptions& options) {
  auto segmenter = SelfieSegmenter::Load(path);
  if (!segmenter.ok()) {
    std::cerr << "glpool selfie: " << segmenter.status().ToString() << "\n";
    return 1;
  }
  const SelfieSegmenter& decoder = **segmenter;
  overlay::VisualMaker visual = [&decoder, &image](const std::map<std::string, TensorData>&,
                                                   const std::map<std::string, TensorData>& outputs)
      -> std::optional<overlay::VisualOutput> {
    auto mask = decoder.MaskFrom(outputs, image);
    if (!mask.ok()) return std::nullopt;
    RgbImage blended = image;
    BlendMask(blended, mask->values, {40, 60, 160});
    return overlay::VisualFromRgb(blended, decoder.input_name(), "person mask");
  };
  return overlay::ShowOverlay({"selfie", flags.image, flags.overlay, flags.overlay_png, flags.frames},
                              decoder.model(), {}, {{decoder.input_name(), decoder.InputFor(image)}},
                              {options.objects, options.precision, "auto"}, visual);
}

int RunSelfie(const SelfieFlags& flags) {
  auto fail = [](const Status& status) {
    std::cerr << "glpool selfie: " << status.ToString() << "\n";
    return 1;
  };
  std::string path = flags.model;
  if (flags.model == "square" || flags.model == "landscape") {
    auto found = FindNpmModel(std::string("@mediapipe/selfie_segmentation/selfie_segmentation") +
                              (flags.model == "landscape" ? "_landscape" : "") + ".tflite");
    if (!found.ok()) return fail(found.status());
    path = *found;
  }
  auto image = LoadRgbImageFile(flags.image);
  if (!image.ok()) return fail(image.status());
  SessionOptions options;
  if (Status parsed = ApplyObjectsAndPrecision(flags.objects, flags.precision, &options); !parsed.ok()) {
    return fail(parsed);
  }
  if (flags.overlay || !flags.overlay_png.empty()) return ShowSelfieOverlay(flags, path, *image, options);
  auto context = samples::MakeSampleContext("headless");
  if (!context.ok()) return fail(context.status());
  auto segmenter = SelfieSegmenter::Create(path, options);
  if (!segmenter.ok()) return fail(segmenter.status());
  const auto start = std::chrono::steady_clock::now();
  auto mask = (*segmenter)->Segment(*image);
  const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  if (!mask.ok()) return fail(mask.status());

  size_t person = 0;
  for (float v : mask->values) person += v >= 0.5f ? 1 : 0;
  std::cout << flags.image << ": person on " << std::lround(100.0 * person / mask->values.size())
            << "% of the photo (mask >= 0.5), " << std::lround(ms) << " ms\n";
  if (!flags.out.empty()) {
    RgbImage blended = *image;
    BlendMask(blended, mask->values, {40, 60, 160});
    Status written = WriteRgbPng(blended, flags.out);
    if (!written.ok()) return fail(written);
    std::cout << "wrote " << flags.out << "\n";
  }
  if (!flags.mask_png.empty()) {
    RgbImage gray{mask->width, mask->height, std::vector<uint8_t>(mask->values.size() * 3)};
    for (size_t i = 0; i < mask->values.size(); ++i) {
      const auto level = static_cast<uint8_t>(std::lround(mask->values[i] * 255));
      gray.pixels[i * 3] = gray.pixels[i * 3 + 1] = gray.pixels[i * 3 + 2] = level;
    }
    Status written = WriteRgbPng(gray, flags.mask_png);
    if (!written.ok()) return fail(written);
    std::cout << "wrote " << flags.mask_png << "\n";
  }
  return 0;
}

}  // namespace

void AddSelfieCommand(CLI::App& app, int& exit_code) {
  auto* command =
      app.add_subcommand("selfie", "Cut the person out of a photo (MediaPipe selfie segmentation) as a PNG");
  auto flags = std::make_shared<SelfieFlags>();
  command->add_option("image", flags->image, "Photo (PNG, JPEG or BMP)")->required();
  command->add_option("--model", flags->model, "square (256x256), landscape (144x256), or a selfie .tflite")
      ->capture_default_str();
  command->add_option("--out", flags->out, "Write the mask blended over the photo to this PNG");
  command->add_option("--mask-png", flags->mask_png, "Write the mask itself (gray, white = person) to this PNG");
  command->add_option("--objects", flags->objects, "textures, buffers or arena")->capture_default_str();
  command->add_option("--precision", flags->precision, "fp32 or fp16")->capture_default_str();
  command->add_flag("--overlay", flags->overlay, "Show the pool overlay in a window, the mask beside the map");
  command->add_option("--overlay-png", flags->overlay_png, "Render the pool overlay with the mask to this PNG");
  command->add_option("--frames", flags->frames, "With --overlay: close after this many frames")
      ->check(CLI::NonNegativeNumber);
  command->callback([&exit_code, flags] { exit_code = RunSelfie(*flags); });
}

}  // namespace glpool
