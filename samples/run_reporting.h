// `glpool run`'s reporting beyond outputs and memory: progress on a
// terminal while a run is long, and where the start-up time went.
#pragma once

#include <functional>
#include <iosfwd>
#include <string>
#include <nlohmann/json.hpp>

#include "glpool/report.h"

namespace glpool::samples {

// Shows "run R/N: task T/total (P%), S s" on stderr, rewritten in place,
// when stderr is a terminal and `enabled`; an empty function otherwise (so
// the session skips the GPU waits progress costs). `*run` is the 1-based
// run the caller is in.
std::function<void(const RunProgress&)> TerminalProgress(bool enabled, const int* run, int runs);
// Shows "case K/N, S s: NAME" on stderr in the same place, when stderr is a
// terminal (a folder of many cases runs for minutes).
void ShowCaseProgress(size_t case_number, size_t cases, double elapsed_s, const std::string& name);
// Clears the progress line, if one was shown.
void ClearTerminalProgress();

// The start-up steps (load_ms: reading the model file) as JSON, and as the
// lines --profile prints.
nlohmann::json StartupJson(const StartupReport& startup, double load_ms);
void PrintStartup(const nlohmann::json& startup, std::ostream& out);

}  // namespace glpool::samples
