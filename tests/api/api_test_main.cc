#include <gtest/gtest.h>

#include <cstring>

#include "program_cache_test.h"

int main(int argc, char** argv) {
  if (argc == 3 && std::strcmp(argv[1], "--program-cache-child") == 0) {
    return glpool::testing_util::RunProgramCacheChild(argv[2]);
  }
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
