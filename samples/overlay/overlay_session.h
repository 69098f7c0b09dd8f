// OverlaySession: one network on one GL context, planned and run with the
// user's current selection (strategy, object kind, precision). Apply() is
// the only way to change the selection — the combo boxes and the tests both
// go through it: it creates a new glpool::Session (sessions on one context
// share compiled programs, so nothing recompiles), runs it once with
// per-task timing and once under a GL timer query where the context has
// one, and rebuilds the overlay model. On failure the previous session and
// model stay and the error is kept for the overlay to show.
#pragma once

#include <functional>

#include <map>
#include <memory>
#include <optional>
#include <string>

#include "glpool/session.h"
#include "samples/overlay/overlay_model.h"
#include "samples/overlay/visual_output.h"

namespace glpool::overlay {

struct Selection {
  Selection() = default;
  Selection(ObjectKind objects_in, Precision precision_in, std::string strategy_in,
            MemoryMode memory_mode_in = MemoryMode::kPooled, std::vector<NamedPool> pools_in = {})
      : objects(objects_in),
        precision(precision_in),
        strategy(std::move(strategy_in)),
        memory_mode(memory_mode_in),
        pools(std::move(pools_in)) {}
  ObjectKind objects = ObjectKind::kBuffers;
  Precision precision = Precision::kFp32;
  std::string strategy = "auto";
  MemoryMode memory_mode = MemoryMode::kPooled;
  std::vector<NamedPool> pools;  // fixed for the session (from --pools)
  bool operator==(const Selection& o) const {
    return objects == o.objects && precision == o.precision && strategy == o.strategy &&
           memory_mode == o.memory_mode;
  }
  bool operator!=(const Selection& o) const { return !(*this == o); }
};

// What the overlay shows beside the map for one run: by default an
// image-shaped input with a mask-shaped output over it (MakeVisualOutput);
// a sample passes its own (faces drawn on the photo).
using VisualMaker = std::function<std::optional<VisualOutput>(const std::map<std::string, TensorData>& inputs,
                                                              const std::map<std::string, TensorData>& outputs)>;

class OverlaySession {
 public:
  // Needs a current GLES 3.1 context for its whole life. Fails when the
  // first selection cannot be planned or run. `input_shapes` fixes symbolic
  // input dims (may be empty for static models).
  static StatusOr<std::unique_ptr<OverlaySession>> Create(std::string title, Model model,
                                                          std::map<std::string, Shape> input_shapes,
                                                          std::map<std::string, TensorData> inputs,
                                                          const Selection& selection,
                                                          VisualMaker visual_maker = nullptr);

  Status Apply(const Selection& selection);

  const std::string& title() const { return title_; }
  const Selection& selection() const { return selection_; }
  const OverlayModel& model() const { return model_; }
  const Session& session() const { return *session_; }
  const std::optional<VisualOutput>& visual() const { return visual_; }
  // Counts successful Apply() calls, so a renderer knows when to re-upload.
  int generation() const { return generation_; }
  const std::string& last_error() const { return last_error_; }

 private:
  explicit OverlaySession(Model model) : network_(std::move(model)) {}

  std::string title_;
  VisualMaker visual_maker_;
  Model network_;
  std::map<std::string, Shape> input_shapes_;
  std::map<std::string, TensorData> inputs_;
  std::unique_ptr<Session> session_;
  Selection selection_;
  OverlayModel model_;
  std::optional<VisualOutput> visual_;
  int generation_ = 0;
  std::string last_error_;
};

}  // namespace glpool::overlay
