// glpool face IMAGE [--model short|full|FILE.tflite] [--out faces.png] [--json]
//                   [--objects K] [--precision P] [--overlay [--frames N]] [--overlay-png FILE]
// Finds faces in a photo with MediaPipe's BlazeFace networks (npm package
// @mediapipe/face_detection) on the GPU: one line per face with its box,
// score and keypoints, and a PNG with boxes and keypoints drawn.
#include <chrono>
#include <cmath>
#include <iostream>
#include <nlohmann/json.hpp>

#include "samples/commands.h"
#include "samples/face_detector.h"
#include "samples/image_input.h"
#include "samples/model_loading.h"
#include "samples/npm_models.h"
#include "samples/overlay/overlay_command.h"
#include "samples/rgb_drawing.h"
#include "samples/sample_context.h"

namespace glpool {
namespace {

struct FaceFlags {
  std::string image;
  std::string model = "short";  // short, full, or a .tflite path
  std::string out;
  bool json = false;
  std::string objects = "buffers";
  std::string precision = "fp32";
  bool overlay = false;     // the pool overlay in a window, the faces beside it
  std::string overlay_png;  // the same, rendered off-screen to this PNG
  int frames = 0;
};

const char* const kKeypointNames[6] = {"right eye", "left eye", "nose", "mouth", "right ear", "left ear"};

// Boxes in green, keypoints in red, lines thick enough to see on any size.
RgbImage DrawFaces(const RgbImage& image, const std::vector<ImageFace>& faces) {
  RgbImage drawn = image;
  const float thickness = std::max(2.0f, static_cast<float>(std::min(image.width, image.height)) / 200);
  for (const ImageFace& face : faces) {
    DrawBoxOutline(drawn, face.left, face.top, face.right, face.bottom, {0, 230, 0}, static_cast<int>(thickness));
    for (const auto& point : face.keypoints) DrawDot(drawn, point[0], point[1], thickness * 1.5f, {255, 40, 40});
  }
  return drawn;
}

// --overlay / --overlay-png: the network in the pool overlay, with the
// photo and its faces as the visual output.
int ShowFaceOverlay(const FaceFlags& flags, const std::string& path, const FaceModelConfig& config,
                    const RgbImage& image, const SessionOptions& options) {
  auto detector = FaceDetector::Load(path, config);
  if (!detector.ok()) {
    std::cerr << "glpool face: " << detector.status().ToString() << "\n";
    return 1;
  }
  const FaceDetector& decoder = **detector;
  overlay::VisualMaker visual = [&decoder, &image](const std::map<std::string, TensorData>&,
                                                   const std::map<std::string, TensorData>& outputs)
      -> std::optional<overlay::VisualOutput> {
    auto faces = decoder.Decode(outputs, image);
    if (!faces.ok()) return std::nullopt;
    return overlay::VisualFromRgb(DrawFaces(image, *faces), decoder.input_name(),
                                  std::to_string(faces->size()) + (faces->size() == 1 ? " face" : " faces"));
  };
  return overlay::ShowOverlay({"face", flags.image, flags.overlay, flags.overlay_png, flags.frames},
                              decoder.model(), {}, {{decoder.input_name(), decoder.InputFor(image)}},
                              {options.objects, options.precision, "auto"}, visual);
}

int RunFace(const FaceFlags& flags) {
  auto fail = [](const Status& status) {
    std::cerr << "glpool face: " << status.ToString() << "\n";
    return 1;
  };
  // A named model picks its file and layout; a path is taken as short
  // range unless its file name says full range.
  FaceModelConfig config = flags.model == "full" || flags.model.find("full_range") != std::string::npos
                               ? FullRangeFaceConfig()
                               : ShortRangeFaceConfig();
  std::string path = flags.model;
  if (flags.model == "short" || flags.model == "full") {
    auto found = FindNpmModel("@mediapipe/face_detection/face_detection_" + flags.model + "_range.tflite");
    if (!found.ok()) return fail(found.status());
    path = *found;
  }
  auto image = LoadRgbImageFile(flags.image);
  if (!image.ok()) return fail(image.status());
  SessionOptions options;
  if (Status parsed = ApplyObjectsAndPrecision(flags.objects, flags.precision, &options); !parsed.ok()) {
    return fail(parsed);
  }
  if (flags.overlay || !flags.overlay_png.empty()) return ShowFaceOverlay(flags, path, config, *image, options);
  auto context = samples::MakeSampleContext("headless");
  if (!context.ok()) return fail(context.status());
  auto detector = FaceDetector::Create(path, config, options);
  if (!detector.ok()) return fail(detector.status());
  const auto start = std::chrono::steady_clock::now();
  auto faces = (*detector)->Detect(*image);
  const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  if (!faces.ok()) return fail(faces.status());

  nlohmann::json report = {{"image", flags.image}, {"model", path}, {"width", image->width},
                           {"height", image->height}, {"ms", std::lround(ms)}, {"faces", nlohmann::json::array()}};
  for (const ImageFace& face : *faces) {
    nlohmann::json keypoints = nlohmann::json::object();
    for (size_t k = 0; k < 6; ++k) {
      keypoints[kKeypointNames[k]] = {std::lround(face.keypoints[k][0]), std::lround(face.keypoints[k][1])};
    }
    report["faces"].push_back({{"box", {std::lround(face.left), std::lround(face.top), std::lround(face.right),
                                        std::lround(face.bottom)}},
                               {"score", face.score},
                               {"keypoints", keypoints}});
  }
  if (!flags.out.empty()) {
    Status written = WriteRgbPng(DrawFaces(*image, *faces), flags.out);
    if (!written.ok()) return fail(written);
    report["png"] = flags.out;
  }
  if (flags.json) {
    std::cout << report.dump(2) << "\n";
    return 0;
  }
  std::cout << flags.image << ": " << faces->size() << (faces->size() == 1 ? " face" : " faces") << " ("
            << std::lround(ms) << " ms)\n";
  for (const auto& face : report["faces"]) {
    const auto& box = face["box"];
    std::cout << "  box " << box[0] << "," << box[1] << " - " << box[2] << "," << box[3] << "  score "
              << face["score"].get<float>() << "\n";
  }
  if (!flags.out.empty()) std::cout << "wrote " << flags.out << "\n";
  return 0;
}

}  // namespace

void AddFaceCommand(CLI::App& app, int& exit_code) {
  auto* command = app.add_subcommand("face", "Find faces in a photo (MediaPipe BlazeFace) and draw them on a PNG");
  auto flags = std::make_shared<FaceFlags>();
  command->add_option("image", flags->image, "Photo (PNG, JPEG or BMP)")->required();
  command->add_option("--model", flags->model, "short (faces within ~2 m), full (~5 m), or a BlazeFace .tflite")
      ->capture_default_str();
  command->add_option("--out", flags->out, "Write the photo with boxes and keypoints to this PNG");
  command->add_flag("--json", flags->json, "Print the faces as JSON");
  command->add_option("--objects", flags->objects, "textures, buffers or arena")->capture_default_str();
  command->add_option("--precision", flags->precision, "fp32 or fp16")->capture_default_str();
  command->add_flag("--overlay", flags->overlay, "Show the pool overlay in a window, the faces beside the map");
  command->add_option("--overlay-png", flags->overlay_png, "Render the pool overlay with the faces to this PNG");
  command->add_option("--frames", flags->frames, "With --overlay: close after this many frames")
      ->check(CLI::NonNegativeNumber);
  command->callback([&exit_code, flags] { exit_code = RunFace(*flags); });
}

}  // namespace glpool
