# Compute shaders: validated by glslang at build time, embedded in the binary.
#
# glpool_validate_shader(OUT_STAMP FILE) adds a build step that runs
# glslangValidator on FILE as a GLSL ES 3.10 compute shader; a broken shader
# fails the build with glslang's "ERROR: <file>:<line>: ..." message.
# Kernels (shaders with a "// glpool-tensors:" line) are first assembled by
# glpool_assemble_shader in every storage variant, and each variant is checked.
function(glpool_validate_shader out_stamp shader_file)
  get_filename_component(name ${shader_file} NAME)
  set(stamp ${CMAKE_CURRENT_BINARY_DIR}/validated/${name}.stamp)
  add_custom_command(
    OUTPUT ${stamp}
    COMMAND ${CMAKE_COMMAND} -DVALIDATOR=${GLSLANG_VALIDATOR}
            -DASSEMBLER=$<TARGET_FILE:glpool_assemble_shader>
            -DSHADER=${shader_file} -DSTAMP=${stamp}
            -P ${PROJECT_SOURCE_DIR}/cmake/ValidateShader.cmake
    DEPENDS ${shader_file} ${PROJECT_SOURCE_DIR}/cmake/ValidateShader.cmake glpool_assemble_shader
    COMMENT "Validating shader ${name}"
    VERBATIM)
  set(${out_stamp} ${stamp} PARENT_SCOPE)
endfunction()
