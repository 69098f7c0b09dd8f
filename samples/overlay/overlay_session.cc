#include "samples/overlay/overlay_session.h"

#include <optional>
#include <utility>

#include "glpool/gpu_info.h"
#include "samples/overlay/gl_timer_query.h"

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
  GLPOOL_ASSIGN_OR_RETURN(const GlInfo info, QueryCurrentGlInfo());
  session->timer_queries_ = info.timer_queries;
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
    // One run serves both clocks: CPU-side per-task times, and where the
    // context has timer queries, GPU time for the whole run (it then also
    // counts the gaps the per-task glFinish calls leave; a second run would
    // double the cost of every switch on slow devices).
    std::optional<GlTimerQuery> query;
    if (timer_queries_) {
      GLPOOL_ASSIGN_OR_RETURN(GlTimerQuery created, GlTimerQuery::Create());
      query = std::move(created);
      GLPOOL_RETURN_IF_ERROR(query->Begin());
    }
    auto outputs = session->Run(inputs_);
    if (query) {
      GLPOOL_RETURN_IF_ERROR(query->End());
    }
    GLPOOL_RETURN_IF_ERROR(outputs.status());
    Timings timings;
    timings.task_ms = session->task_ms();
    if (query) {
      GLPOOL_ASSIGN_OR_RETURN(timings.gpu_run_ms, query->ElapsedMs());
    }
    model_ = BuildOverlayModel(*session, timings);
    visual_ = visual_maker_(inputs_, *outputs);
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
