#include "planner/plan_report_format.h"

#include <algorithm>
#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <map>
#include <nlohmann/json.hpp>

namespace glpool {
namespace {

using ordered_json = nlohmann::ordered_json;

ordered_json SectionJson(const PlanSection& section) {
  ordered_json strategies = ordered_json::array();
  for (const StrategyRow& row : section.strategies) {
    ordered_json entry = {{"name", row.name},
                          {"total_bytes", row.total_bytes},
                          {"objects", row.objects},
                          {"ms", row.ms},
                          {"verified", row.verified}};
    if (!row.detail.empty()) entry["detail"] = row.detail;  // AUTO's winner, proofs, certificates
    strategies.push_back(std::move(entry));
  }
  return {{"lower_bound_bytes", section.lower_bound_bytes},
          {"strategies", std::move(strategies)},
          {"auto_choice", section.auto_choice}};
}

std::string Format(const char* format, ...) __attribute__((format(printf, 1, 2)));
std::string Format(const char* format, ...) {
  char buffer[512];
  va_list args;
  va_start(args, format);
  std::vsnprintf(buffer, sizeof(buffer), format, args);
  va_end(args);
  return buffer;
}

double Mb(uint64_t bytes) { return static_cast<double>(bytes) / 1e6; }

std::string Ratio(uint64_t total, uint64_t bound) {
  if (bound == 0) return total == 0 ? "1.000" : "-";
  return Format("%.3f", static_cast<double>(total) / static_cast<double>(bound));
}

// What is proven about the best verified plan of a section: "proven
// optimal" when it meets the lower bound or a strategy proved it (EXACT,
// AUTO's searches), else its gap to the bound, which is then all that is
// known: the optimum lies somewhere in between.
std::string Certificate(const PlanSection& section) {
  const StrategyRow* best = nullptr;
  bool proven = false;
  for (const StrategyRow& row : section.strategies) {
    if (!row.verified || !row.error.empty()) continue;
    if (best == nullptr || row.total_bytes < best->total_bytes) best = &row;
  }
  if (best == nullptr) return "no verified plan";
  for (const StrategyRow& row : section.strategies) {
    if (row.verified && row.total_bytes == best->total_bytes &&
        row.detail.find("proven optimal") != std::string::npos) {
      proven = true;
    }
  }
  const uint64_t bound = section.lower_bound_bytes;
  if (best->total_bytes <= bound) {
    return Format("proven optimal (%s, %.2f MB, at the lower bound)", best->name.c_str(),
                  Mb(best->total_bytes));
  }
  const double gap = 100.0 * (static_cast<double>(best->total_bytes) / static_cast<double>(bound) - 1.0);
  if (proven) {
    return Format("proven optimal (%s, %.2f MB, %.2f%% above the lower bound, which no plan reaches)",
                  best->name.c_str(), Mb(best->total_bytes), gap);
  }
  return Format("best %.2f MB (%s), gap %.2f%% to the lower bound %.2f MB; optimality not proven",
                Mb(best->total_bytes), best->name.c_str(), gap, Mb(bound));
}

std::string SectionTable(const char* title, const PlanSection& section, uint64_t naive) {
  std::string out = Format("%s (lower bound %.2f MB)\n", title, Mb(section.lower_bound_bytes));
  // A strategy of one kind only (EXACT plans offsets): nothing ran here.
  if (section.strategies.empty()) return out + "  no plan: the strategy asked for does not plan this kind of pool\n";
  out += Format("  %-20s %10s %8s %8s %8s %9s  %s\n", "strategy", "total MB", "% naive", "x bound",
                "objects", "ms", "verified");
  for (const StrategyRow& row : section.strategies) {
    const double percent =
        naive == 0 ? 100.0 : 100.0 * static_cast<double>(row.total_bytes) / naive;
    out +=
        Format("  %-20s %10.2f %7.1f%% %8s %8zu %9.2f  %s", row.name.c_str(), Mb(row.total_bytes),
               percent, Ratio(row.total_bytes, section.lower_bound_bytes).c_str(), row.objects,
               row.ms, row.verified ? "yes" : "NO");
    if (!row.detail.empty()) out += "  (" + row.detail + ")";
    out += "\n";
    if (!row.error.empty()) out += "    error: " + row.error + "\n";
  }
  if (!section.auto_choice.empty()) out += "  auto chose: " + section.auto_choice + "\n";
  out += "  certificate: " + Certificate(section) + "\n";
  return out;
}

std::string SectionMarkdown(const char* title, const std::vector<PlanReport>& reports,
                            const PlanSection PlanReport::*member) {
  // Columns: the union of strategy names, in first-seen order.
  std::vector<std::string> names;
  for (const PlanReport& r : reports) {
    for (const StrategyRow& row : (r.*member).strategies) {
      // "naive" has its own column already.
      if (row.name != "naive" && std::find(names.begin(), names.end(), row.name) == names.end()) {
        names.push_back(row.name);
      }
    }
  }
  std::string out = Format("### %s (MB = 1e6 bytes)\n\n", title);
  out += "| model | tensors | naive | lower bound |";
  for (const std::string& n : names) out += " " + n + " |";
  out += " AUTO gap | AUTO ms | all verified |\n|---|---:|---:|---:|";
  for (size_t k = 0; k < names.size(); ++k) out += "---:|";
  out += "---:|---:|:---:|\n";
  double log_sum = 0.0;
  size_t gaps = 0;
  for (const PlanReport& r : reports) {
    const PlanSection& section = r.*member;
    out += Format("| %s | %zu | %.2f | %.2f |", r.model.c_str(), r.tensors, Mb(r.naive_bytes),
                  Mb(section.lower_bound_bytes));
    const StrategyRow* auto_row = nullptr;
    bool verified = true;
    for (const StrategyRow& row : section.strategies) verified &= row.verified;
    for (const std::string& n : names) {
      const StrategyRow* found = nullptr;
      for (const StrategyRow& row : section.strategies) {
        if (row.name == n) found = &row;
      }
      if (found == nullptr) {
        out += " |";
        continue;
      }
      if (n == "auto") auto_row = found;
      out += found->error.empty() ? Format(" %.2f |", Mb(found->total_bytes)) : " error |";
    }
    if (auto_row != nullptr && section.lower_bound_bytes > 0) {
      const double ratio = static_cast<double>(auto_row->total_bytes) / section.lower_bound_bytes;
      log_sum += std::log(ratio);
      ++gaps;
      out += Format(" %.2f%% | %.1f |", 100.0 * (ratio - 1.0), auto_row->ms);
    } else {
      out += " - | - |";
    }
    out += verified ? " yes |\n" : " **NO** |\n";
  }
  if (gaps > 0) {
    out += Format("\nGeometric-mean AUTO gap to the lower bound: %.3f%% over %zu models.\n",
                  100.0 * (std::exp(log_sum / gaps) - 1.0), gaps);
  }
  return out;
}

}  // namespace

std::string PlanReportJson(const PlanReport& report, int indent) {
  ordered_json j = {{"model", report.model},
                    {"tensors", report.tensors},
                    {"naive_bytes", report.naive_bytes},
                    {"shared_objects", SectionJson(report.shared_objects)},
                    {"offsets", SectionJson(report.offsets)}};
  return j.dump(indent, ' ', false, nlohmann::json::error_handler_t::replace);
}

std::string PlanReportTable(const PlanReport& report) {
  std::string out = Format("model %s: %zu tensors, naive %.2f MB\n\n", report.model.c_str(),
                           report.tensors, Mb(report.naive_bytes));
  out += SectionTable("shared objects", report.shared_objects, report.naive_bytes);
  out += "\n";
  out += SectionTable("offsets (one arena)", report.offsets, report.naive_bytes);
  return out;
}

std::string PlanReportsMarkdown(const std::vector<PlanReport>& reports) {
  return SectionMarkdown("Shared objects", reports, &PlanReport::shared_objects) + "\n" +
         SectionMarkdown("Offsets (one arena)", reports, &PlanReport::offsets);
}

}  // namespace glpool
