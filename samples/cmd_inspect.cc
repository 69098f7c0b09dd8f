// glpool inspect MODEL.tflite: the operators of a TensorFlow Lite file, one
// per line, then how many of each (to see which ops a network needs).
#include <iostream>
#include <map>
#include <sstream>

#include "glpool/tflite.h"
#include "samples/commands.h"

namespace glpool {

void AddInspectCommand(CLI::App& app, int& exit_code) {
  auto* cmd = app.add_subcommand("inspect", "List the operators of a .tflite model");
  auto model = std::make_shared<std::string>();
  auto summary_only = std::make_shared<bool>(false);
  cmd->add_option("model", *model, "Model file (.tflite)")->required();
  cmd->add_flag("--summary", *summary_only, "Print only the count of each operator");
  cmd->callback([model, summary_only, &exit_code] {
    StatusOr<std::string> text = DescribeTfliteFile(*model);
    if (!text.ok()) {
      std::cerr << "glpool inspect: " << text.status().ToString() << "\n";
      exit_code = 1;
      return;
    }
    std::map<std::string, int> counts;
    std::istringstream lines(*text);
    std::string line;
    while (std::getline(lines, line)) {
      std::istringstream fields(line);
      std::string index, name;
      fields >> index >> name;
      ++counts[name];
    }
    if (!*summary_only) std::cout << *text << "\n";
    for (const auto& [name, count] : counts) std::cout << count << "\t" << name << "\n";
  });
}

}  // namespace glpool
