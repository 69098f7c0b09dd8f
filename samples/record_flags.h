// The memory options that change a model's usage records, as `glpool run`
// and `glpool plan` both take them: graph inputs/outputs planned with the
// intermediates, and intermediates kept to the end of the run.
#pragma once

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

namespace glpool::samples {

struct RecordShapeFlags {
  bool inputs_in_pool = false;
  bool outputs_in_pool = false;
  std::vector<std::string> keep;  // one name per --keep
  bool keep_all = false;
};

inline void AddRecordShapeFlags(CLI::App& command, RecordShapeFlags& flags) {
  command.add_flag("--inputs-in-pool", flags.inputs_in_pool,
                   "Plan graph inputs with the intermediates (their memory is reused once read)");
  command.add_flag("--outputs-in-pool", flags.outputs_in_pool,
                   "Plan graph outputs with the intermediates (live to the end of the run)");
  // One value per occurrence: `--keep a --keep b MODEL` must not swallow MODEL.
  command.add_option("--keep", flags.keep, "Keep this intermediate to the end of the run (repeatable)")
      ->allow_extra_args(false);
  command.add_flag("--keep-all", flags.keep_all, "Keep every intermediate to the end of the run");
}

}  // namespace glpool::samples
