// The glpool command line's sub-commands. Each Add*Command registers one
// sub-command on the CLI11 app; its callback sets `exit_code` when it runs.
// main.cc lists them all explicitly, in the order `glpool --help` shows them.
#pragma once

#include <CLI/CLI.hpp>

namespace glpool {

void AddDemoCommand(CLI::App& app, int& exit_code);
void AddInfoCommand(CLI::App& app, int& exit_code);
void AddRunCommand(CLI::App& app, int& exit_code);
void AddTestOnnxCommand(CLI::App& app, int& exit_code);
void AddPlanCommand(CLI::App& app, int& exit_code);
void AddInspectCommand(CLI::App& app, int& exit_code);
void AddOcrCommand(CLI::App& app, int& exit_code);
void AddOpsCommand(CLI::App& app, int& exit_code);
void AddFaceCommand(CLI::App& app, int& exit_code);
void AddSelfieCommand(CLI::App& app, int& exit_code);

}  // namespace glpool
