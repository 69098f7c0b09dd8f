# Runs COMMAND ARGS with ENVIRONMENT and requires: a non-zero exit, no crash,
# and exactly one line of explanation on stderr.
execute_process(
  COMMAND ${CMAKE_COMMAND} -E env ${ENVIRONMENT} ${COMMAND} ${ARGS}
  RESULT_VARIABLE result
  OUTPUT_VARIABLE out
  ERROR_VARIABLE err)
if(result EQUAL 0)
  message(FATAL_ERROR "expected a failure, got exit 0; stdout: ${out}")
endif()
if(NOT result MATCHES "^[0-9]+$" OR result GREATER 125)
  message(FATAL_ERROR "the command crashed (${result}); stderr: ${err}")
endif()
# Drivers may warn on their own lines (Mesa's "libEGL warning: ..."); the
# rest of stderr must be glpool's single line.
string(REGEX REPLACE "lib[A-Za-z]+ warning:[^\n]*\n?" "" own "${err}")
string(STRIP "${own}" own)
string(FIND "${own}" "\n" newline)
if(own STREQUAL "" OR NOT newline EQUAL -1)
  message(FATAL_ERROR "expected one line of explanation on stderr, got: '${err}'")
endif()
set(err "${own}")
message(STATUS "failed as expected (exit ${result}): ${err}")
