#include <CLI/CLI.hpp>

#include "samples/commands.h"

int main(int argc, char** argv) {
  CLI::App app{"glpool: OpenGL ES 3.1 compute inference with a pooled memory planner"};
  app.require_subcommand(1);
  int exit_code = 0;
  glpool::AddDemoCommand(app, exit_code);
  glpool::AddInfoCommand(app, exit_code);
  glpool::AddRunCommand(app, exit_code);
  glpool::AddTestOnnxCommand(app, exit_code);
  glpool::AddPlanCommand(app, exit_code);
  CLI11_PARSE(app, argc, argv);
  return exit_code;
}
