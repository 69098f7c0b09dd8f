# Script mode: validate one compute shader as GLSL ES 3.10, then touch STAMP.
# A kernel (with a "// glpool-tensors:" line) is assembled by ASSEMBLER in each
# storage variant first; glslang checks every variant. Errors name the .comp
# file and the line in it (the assembled text carries "#line 2").
file(STRINGS ${SHADER} first_line LIMIT_COUNT 1)
if(NOT first_line STREQUAL "#version 310 es")
  message(FATAL_ERROR "${SHADER}:1: the first line must be '#version 310 es'")
endif()

function(validate_text file label)
  execute_process(
    COMMAND ${VALIDATOR} -S comp ${file}
    RESULT_VARIABLE result
    OUTPUT_VARIABLE output
    ERROR_VARIABLE output)
  if(NOT result EQUAL 0)
    # glslang says "ERROR: 0:12: ..."; name the file so editors can jump to it.
    string(REGEX REPLACE "ERROR: 0:([0-9]+):" "ERROR: ${SHADER}:\\1:" output "${output}")
    message(NOTICE "${output}")
    message(FATAL_ERROR "glslang rejected ${SHADER}${label}")
  endif()
endfunction()

file(STRINGS ${SHADER} interface_line REGEX "^// glpool-tensors:")
if(interface_line)
  get_filename_component(stamp_dir ${STAMP} DIRECTORY)
  get_filename_component(name ${SHADER} NAME_WE)
  foreach(variant buffer-fp32 buffer-fp16 texture2d-fp32 texture2darray-fp16)
    set(assembled ${stamp_dir}/${name}.${variant}.comp)
    execute_process(COMMAND ${ASSEMBLER} ${SHADER} ${variant} ${assembled}
                    RESULT_VARIABLE result ERROR_VARIABLE error)
    if(NOT result EQUAL 0)
      message(FATAL_ERROR "${SHADER}: assembling the ${variant} variant failed: ${error}")
    endif()
    validate_text(${assembled} " (${variant} variant)")
  endforeach()
else()
  validate_text(${SHADER} "")
endif()
file(TOUCH ${STAMP})
