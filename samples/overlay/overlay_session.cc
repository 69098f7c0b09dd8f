#include "samples/overlay/overlay_session.h"

#include <optional>
#include <utility>


namespace glpool::overlay {

StatusOr<std::unique_ptr<OverlaySession>> OverlaySession::Create(std::string title, Model model,
                                                                 std::map<std::string, Shape> input_shapes,
                                                                 std::map<std::string, TensorData> inputs,
                                                                 const Selection& selection,
                                                                 VisualMaker visual_maker) {
  std::unique_ptr<OverlaySession> session(new OverlaySession(std::move(model)));
  session->title_ = std::move(title);
  session->visual_maker_ = visual_maker ? std::move(visual_maker) : VisualMaker(MakeVisualOutput);
  session->input_shapes_ = std::move(input_shapes);
  session->inputs_ = std::move(inputs);
  GLPOOL_RETURN_IF_ERROR(session->Apply(selection));
  return session;
}

Status OverlaySession::Apply(const Selection& selection) {
  auto attempt = [&]() -> Status {
    SessionOptions options;
    options.objects = selection.objects;
    options.precision = selection.precision;
    options.strategy = selection.strategy;
    options.memory_mode = selection.memory_mode;
    options.pools = selection.pools;
    options.input_shapes = input_shapes_;
    options.time_tasks = true;
    if (options.precision == Precision::kFp16) options.calibration_inputs = inputs_;
    GLPOOL_ASSIGN_OR_RETURN(std::unique_ptr<Session> session, Session::Create(network_, options));
    // One run serves both clocks: the session times each task, on the GPU
    // too where the context's timer queries see compute work; the whole
    // run's GPU time is the sum of its tasks'.
    GLPOOL_ASSIGN_OR_RETURN(auto outputs, session->Run(inputs_));
    Timings timings;
    timings.task_ms = session->task_ms();
    timings.task_ms_from_gpu = session->task_ms_from_gpu();
    if (!session->task_gpu_ms().empty()) {
      timings.gpu_run_ms = 0;
      for (double ms : session->task_gpu_ms()) timings.gpu_run_ms += ms > 0 ? ms : 0;
    }
    model_ = BuildOverlayModel(*session, timings);
    visual_ = visual_maker_(inputs_, outputs);
    session_ = std::move(session);
    selection_ = selection;
    ++generation_;
    return Status();
  };
  Status status = attempt();
  last_error_ = status.ok() ? std::string() : status.ToString();
  if (status.ok()) return status;
  return status.WithContext(std::string(ObjectKindName(selection.objects)) + "/" + PrecisionName(selection.precision) +
                            "/" + selection.strategy);
}

}  // namespace glpool::overlay
