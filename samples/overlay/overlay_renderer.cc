#include "samples/overlay/overlay_renderer.h"

#include <imgui.h>

#include <algorithm>
#include <cstdint>
#include <string>

#include "glpool/options.h"

namespace glpool::overlay {
namespace {

// One combo over `names`; returns true and sets `value` when the user picks.
bool Combo(const char* label, const std::vector<std::string>& names, std::string& value, float width) {
  bool changed = false;
  ImGui::SetNextItemWidth(width);
  if (ImGui::BeginCombo(label, value.c_str())) {
    for (const std::string& name : names) {
      const bool selected = name == value;
      if (ImGui::Selectable(name.c_str(), selected) && !selected) {
        value = name;
        changed = true;
      }
      if (selected) ImGui::SetItemDefaultFocus();
    }
    ImGui::EndCombo();
  }
  return changed;
}

void DrawTotals(const OverlaySession& session, const Totals& t, double gpu_run_ms) {
  ImGui::Text("%s  |  %zu pooled tensors in %zu objects", session.title().c_str(), t.tensors, t.pool_objects);
  ImGui::Text("naive %s   pool %s   lower bound %s   saved %.1f%%   (%s, %s, strategy %s -> %s)",
              FormatBytes(t.naive_bytes).c_str(), FormatBytes(t.pool_bytes).c_str(),
              FormatBytes(t.lower_bound_bytes).c_str(), t.percent_saved, t.objects.c_str(), t.precision.c_str(),
              t.strategy.c_str(), t.chosen.c_str());
  ImGui::Text("memory mode %s: at most %s of intermediates live at once%s", t.memory_mode.c_str(),
              FormatBytes(t.peak_live_bytes).c_str(),
              t.pools > 1 ? (", " + std::to_string(t.pools) + " pools planned apart").c_str() : "");
  if (gpu_run_ms >= 0) {
    ImGui::Text("whole run on the GPU: %.3f ms (its tasks' GL timer queries)", gpu_run_ms);
  } else {
    ImGui::TextDisabled("whole run on the GPU: n/a (no GL timer query result on this context)");
  }
}

std::optional<Selection> DrawSelectors(const OverlaySession& session) {
  const Selection& current = session.selection();
  std::string kind = ObjectKindName(current.objects);
  std::string precision = PrecisionName(current.precision);
  std::string strategy = current.strategy;
  bool changed = Combo("objects", {"textures", "buffers", "arena"}, kind, 120);
  ImGui::SameLine();
  changed |= Combo("precision", {"fp32", "fp16"}, precision, 90);
  ImGui::SameLine();
  StatusOr<ObjectKind> parsed = ParseObjectKind(kind);
  std::vector<std::string> strategies = parsed.ok() ? StrategyNames(*parsed) : std::vector<std::string>{};
  changed |= Combo("strategy", strategies, strategy, 200);
  if (!session.last_error().empty()) {
    ImGui::TextColored(ImVec4(1, 0.4f, 0.3f, 1), "last change failed: %s", session.last_error().c_str());
  }
  if (!changed) return std::nullopt;
  Selection next = current;
  // The names come from our own lists, so parsing cannot fail.
  next.objects = ParseObjectKind(kind).value();
  next.precision = ParsePrecision(precision).value();
  if (std::find(strategies.begin(), strategies.end(), strategy) == strategies.end()) {
    strategy = strategies.empty() ? "auto" : strategies.front();
    if (std::find(strategies.begin(), strategies.end(), "auto") != strategies.end()) strategy = "auto";
  }
  next.strategy = strategy;
  return next;
}

void DrawMap(const OverlayModel& model, FrameReport& report) {
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const float left = 72, bottom = 18;
  const float x0 = origin.x + left, y0 = origin.y, x1 = origin.x + std::max(avail.x, left + 10);
  const float y1 = origin.y + std::max(avail.y - bottom, 10.0f);
  report.map_x0 = x0;
  report.map_y0 = y0;
  report.map_x1 = x1;
  report.map_y1 = y1;
  draw->AddRectFilled(ImVec2(x0, y0), ImVec2(x1, y1), IM_COL32(30, 32, 40, 255));
  const double tasks = std::max<int64_t>(model.task_count, 1);
  const double extent = std::max(model.y_extent, 1.0);
  auto x_of = [&](double task) { return static_cast<float>(x0 + (x1 - x0) * task / tasks); };
  auto y_of = [&](double y) { return static_cast<float>(y0 + (y1 - y0) * y / extent); };
  // Named pools' labels, drawn over the boxes at the end.
  std::vector<std::pair<ImVec2, std::string>> pool_labels;
  // Axis labels: objects (or arena offsets) down the left, tasks along the bottom.
  const ImU32 text = IM_COL32(200, 200, 210, 255);
  if (model.arena) {
    draw->AddText(ImVec2(origin.x, y0), text, "offset 0");
    draw->AddText(ImVec2(origin.x, y1 - 14), text, FormatBytes(static_cast<uint64_t>(extent)).c_str());
  } else {
    // Each object's band, as tall as its bytes, labelled with its id and
    // size where the band has room for the text.
    float label_bottom = y0;  // pool labels stack down when bands are thinner than a line
    for (const PoolRow& row : model.rows) {
      const float top = y_of(row.y0), bottom = y_of(row.y1);
      report.row_bytes.push_back(row.bytes);
      report.row_heights.push_back(bottom - top);
      draw->AddLine(ImVec2(origin.x, bottom), ImVec2(x1, bottom), IM_COL32(70, 72, 84, 255));
      if (row.first_of_pool && !row.pool.empty() && model.rows.size() > 1) {
        // Named pools are separate bands: a bright rule and the pool's name.
        draw->AddLine(ImVec2(origin.x, top), ImVec2(x1, top), IM_COL32(240, 200, 80, 255), 2.0f);
        const float label_top = std::max(top + 1, label_bottom);
        pool_labels.push_back({ImVec2(x1 - ImGui::CalcTextSize(row.pool.c_str()).x - 4, label_top), row.pool});
        label_bottom = label_top + ImGui::GetTextLineHeight();
      }
      const float middle = 0.5f * (top + bottom);
      if (bottom - top >= 28) {
        draw->AddText(ImVec2(origin.x, middle - 14), text, ("obj " + std::to_string(row.id)).c_str());
        draw->AddText(ImVec2(origin.x, middle), text, FormatBytes(row.bytes).c_str());
      } else if (bottom - top >= 14) {
        draw->AddText(ImVec2(origin.x, middle - 7), text, FormatBytes(row.bytes).c_str());
      }
    }
  }
  draw->AddText(ImVec2(x0, y1 + 2), text, "task 0");
  const std::string last = "task " + std::to_string(model.task_count - 1);
  draw->AddText(ImVec2(x1 - ImGui::CalcTextSize(last.c_str()).x, y1 + 2), text, last.c_str());

  const MapBox* hovered = nullptr;
  for (const MapBox& box : model.boxes) {
    ImVec2 a(x_of(static_cast<double>(box.first_task)), y_of(box.y0));
    ImVec2 b(x_of(static_cast<double>(box.last_task + 1)), y_of(box.y1));
    // Never thinner than a pixel: every tensor must stay visible.
    b.x = std::max(b.x, a.x + 1);
    b.y = std::max(b.y, a.y + 1);
    const ImVec2 inset_a(a.x + 1, a.y + 1), inset_b(std::max(b.x - 1, a.x + 1), std::max(b.y - 1, a.y + 1));
    draw->AddRectFilled(inset_a, inset_b, box.color);
    draw->AddRect(inset_a, inset_b, IM_COL32(0, 0, 0, 160));
    const std::string name = box.label.substr(0, box.label.find('\n'));
    const ImVec2 size = ImGui::CalcTextSize(name.c_str());
    if (size.x + 4 < b.x - a.x && size.y + 2 < b.y - a.y) {
      draw->AddText(ImVec2(a.x + 3, a.y + 2), IM_COL32(10, 10, 10, 255), name.c_str());
    }
    ++report.boxes_drawn;
    report.box_tensors.push_back(box.tensor);
    if (ImGui::IsMouseHoveringRect(a, b)) hovered = &box;
  }
  for (const auto& [at, label] : pool_labels) {
    const ImVec2 size = ImGui::CalcTextSize(label.c_str());
    draw->AddRectFilled(ImVec2(at.x - 2, at.y), ImVec2(at.x + size.x + 2, at.y + size.y), IM_COL32(20, 20, 26, 220));
    draw->AddText(at, IM_COL32(240, 200, 80, 255), label.c_str());
  }
  // Dynamic mode: bytes live after each task, drawn up from the bottom on
  // the map's byte scale.
  if (model.live_bytes.size() > 1) {
    std::vector<ImVec2> points;
    for (size_t t = 0; t < model.live_bytes.size(); ++t) {
      points.emplace_back(x_of(static_cast<double>(t) + 0.5),
                          y1 - (y1 - y0) * static_cast<float>(static_cast<double>(model.live_bytes[t]) / extent));
    }
    draw->AddPolyline(points.data(), static_cast<int>(points.size()), IM_COL32(255, 230, 60, 255), 0, 2.0f);
    draw->AddText(ImVec2(x0 + 4, y1 - 16), IM_COL32(255, 230, 60, 255), "live bytes (dynamic mode)");
    report.live_curve_points = points.size();
  }
  if (hovered != nullptr) ImGui::SetTooltip("%s", hovered->label.c_str());
  ImGui::Dummy(avail);
}

void DrawPoolTable(const OverlayModel& model, FrameReport& report) {
  const ImGuiTableFlags flags =
      ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg | ImGuiTableFlags_ScrollY | ImGuiTableFlags_Resizable;
  if (!ImGui::BeginTable("pool", 7, flags)) return;
  ImGui::TableSetupScrollFreeze(0, 1);
  for (const char* header : {"id", "pool", "kind", "extent", "format", "bytes", "tensors"}) {
    ImGui::TableSetupColumn(header, std::string(header) == "tensors" ? ImGuiTableColumnFlags_WidthStretch
                                                                     : ImGuiTableColumnFlags_WidthFixed);
  }
  ImGui::TableHeadersRow();
  for (const PoolRow& row : model.rows) {
    std::string tensors;
    for (const std::string& name : row.tensors) tensors += (tensors.empty() ? "" : ", ") + name;
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    ImGui::Text("%zu", row.id);
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(row.pool.c_str());
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(row.kind.c_str());
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(row.extent.c_str());
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(row.format.c_str());
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(FormatBytes(row.bytes).c_str());
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(tensors.c_str());
    ++report.pool_rows;
  }
  ImGui::EndTable();
}

void DrawTaskTimes(const OverlayModel& model, FrameReport& report) {
  ImGui::TextWrapped("per-task times, %s", model.task_time_source.c_str());
  const ImGuiTableFlags flags = ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg | ImGuiTableFlags_ScrollY;
  if (!ImGui::BeginTable("tasks", 3, flags)) return;
  ImGui::TableSetupScrollFreeze(0, 1);
  ImGui::TableSetupColumn("#", ImGuiTableColumnFlags_WidthFixed);
  ImGui::TableSetupColumn("task", ImGuiTableColumnFlags_WidthStretch);
  ImGui::TableSetupColumn("ms", ImGuiTableColumnFlags_WidthFixed);
  ImGui::TableHeadersRow();
  for (size_t i = 0; i < model.task_times.size(); ++i) {
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    ImGui::Text("%zu", i);
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(model.task_times[i].label.c_str());
    ImGui::TableNextColumn();
    ImGui::Text("%.3f", model.task_times[i].ms);
    ++report.task_rows;
  }
  ImGui::EndTable();
}

}  // namespace

StatusOr<FrameReport> OverlayRenderer::Draw(const OverlaySession& session, int width, int height) {
  const auto& visual = session.visual();
  if (visual && uploaded_generation_ != session.generation()) {
    GLPOOL_ASSIGN_OR_RETURN(visual_texture_, GlRgba8Texture::Create(visual->width, visual->height, visual->rgba));
    uploaded_generation_ = session.generation();
  }
  FrameReport report;
  const OverlayModel& model = session.model();
  report.totals = model.totals;
  const float w = static_cast<float>(width), h = static_cast<float>(height);
  ImGui::SetNextWindowPos(ImVec2(0, 0));
  ImGui::SetNextWindowSize(ImVec2(w, h));
  const ImGuiWindowFlags whole = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove |
                                 ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoBringToFrontOnFocus;
  ImGui::Begin("glpool overlay", nullptr, whole);
  DrawTotals(session, model.totals, model.gpu_run_ms);
  report.requested = DrawSelectors(session);

  const float map_h = std::max(120.0f, h * 0.45f);
  const bool show_visual = visual.has_value() && visual_texture_.id() != 0;
  const float visual_w = show_visual ? std::min(map_h, w * 0.35f) : 0.0f;
  ImGui::BeginChild("map", ImVec2(show_visual ? w - visual_w - 24 : 0, map_h), true);
  ImGui::TextUnformatted(model.arena ? "memory map: x = task, y = arena offset (hover a box)"
                                     : "memory map: x = task, y = shared object (hover a box)");
  DrawMap(model, report);
  ImGui::EndChild();
  if (show_visual) {
    ImGui::SameLine();
    ImGui::BeginGroup();
    ImGui::Text("%s over %s", visual->mask.c_str(), visual->input.c_str());
    const float side = visual_w - 8;
    ImGui::Image(reinterpret_cast<ImTextureID>(static_cast<intptr_t>(visual_texture_.id())),
                 ImVec2(side, side * visual->height / std::max(visual->width, 1)));
    ImGui::EndGroup();
    report.visual_drawn = true;
  }

  const float rest = std::max(ImGui::GetContentRegionAvail().y, 60.0f);
  ImGui::BeginChild("pool_table", ImVec2(w * 0.6f, rest), true);
  DrawPoolTable(model, report);
  ImGui::EndChild();
  ImGui::SameLine();
  ImGui::BeginChild("task_times", ImVec2(0, rest), true);
  DrawTaskTimes(model, report);
  ImGui::EndChild();
  ImGui::End();
  return report;
}

}  // namespace glpool::overlay
