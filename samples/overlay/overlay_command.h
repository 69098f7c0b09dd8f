// The overlay as a command shows it (`glpool run/face/selfie --overlay` or
// `--overlay-png FILE`): one network planned and run with the selection,
// rendered off-screen to a PNG and/or shown in a GLFW window until closed.
#pragma once

#include <map>
#include <string>

#include "glpool/model.h"
#include "samples/overlay/overlay_session.h"

namespace glpool::overlay {

struct OverlayRequest {
  std::string command;  // "run", "face", ... for messages
  std::string title;
  bool window = false;
  std::string png;  // empty: none
  int frames = 0;   // window: close after N frames (0: when closed)
};

// Exit code: 0, or 1 after printing "glpool COMMAND: error" to stderr.
int ShowOverlay(const OverlayRequest& request, const Model& model, const std::map<std::string, Shape>& shapes,
                const std::map<std::string, TensorData>& inputs, const Selection& selection,
                VisualMaker visual_maker = nullptr);

}  // namespace glpool::overlay
