# Script mode: validate one compute shader as GLSL ES 3.10, then touch STAMP.
file(STRINGS ${SHADER} first_line LIMIT_COUNT 1)
if(NOT first_line STREQUAL "#version 310 es")
  message(FATAL_ERROR "${SHADER}:1: the first line must be '#version 310 es'")
endif()
execute_process(
  COMMAND ${VALIDATOR} -S comp ${SHADER}
  RESULT_VARIABLE result
  OUTPUT_VARIABLE output
  ERROR_VARIABLE output)
if(NOT result EQUAL 0)
  # glslang says "ERROR: 0:12: ..."; name the file so editors can jump to it.
  string(REGEX REPLACE "ERROR: 0:([0-9]+):" "ERROR: ${SHADER}:\\1:" output "${output}")
  message(NOTICE "${output}")
  message(FATAL_ERROR "glslang rejected ${SHADER}")
endif()
file(TOUCH ${STAMP})
