#include <CLI/CLI.hpp>
#include <iostream>

#include "samples/commands.h"

// Exit codes: 0 success, 1 the command failed (its one-line error on
// stderr), 2 the command line itself is wrong.
int main(int argc, char** argv) {
  CLI::App app{"glpool: OpenGL ES 3.1 compute inference with a pooled memory planner"};
  app.require_subcommand(1);
  int exit_code = 0;
  glpool::AddDemoCommand(app, exit_code);
  glpool::AddInfoCommand(app, exit_code);
  glpool::AddRunCommand(app, exit_code);
  glpool::AddTestOnnxCommand(app, exit_code);
  glpool::AddPlanCommand(app, exit_code);
  glpool::AddInspectCommand(app, exit_code);
  glpool::AddOcrCommand(app, exit_code);
  glpool::AddFaceCommand(app, exit_code);
  glpool::AddSelfieCommand(app, exit_code);
  glpool::AddOpsCommand(app, exit_code);
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& help) {
    return app.exit(help);
  } catch (const CLI::CallForAllHelp& help) {
    return app.exit(help);
  } catch (const CLI::ParseError& error) {
    std::cerr << "glpool: " << error.what() << " (see glpool --help)\n";
    return 2;
  }
  return exit_code;
}
