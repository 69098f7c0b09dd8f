# Generates the GLES 3.2 + EGL 1.5 loader into the build tree with Debian's
# python3-glad. --reproducible keeps the output byte-identical across builds.
set(GLAD_OUT_DIR ${CMAKE_BINARY_DIR}/glad)
set(GLAD_SOURCES ${GLAD_OUT_DIR}/src/gles2.c ${GLAD_OUT_DIR}/src/egl.c)
add_custom_command(
  OUTPUT ${GLAD_SOURCES}
         ${GLAD_OUT_DIR}/include/glad/gles2.h
         ${GLAD_OUT_DIR}/include/glad/egl.h
  COMMAND ${GLAD_EXECUTABLE} --quiet --reproducible --api gles2=3.2,egl=1.5
          --out-path ${GLAD_OUT_DIR} c --loader
  COMMENT "Generating the GLES/EGL loader with glad"
  VERBATIM)
add_library(glpool_glad STATIC ${GLAD_SOURCES})
target_include_directories(glpool_glad PUBLIC ${GLAD_OUT_DIR}/include)
target_link_libraries(glpool_glad PUBLIC ${CMAKE_DL_LIBS})
set_target_properties(glpool_glad PROPERTIES POSITION_INDEPENDENT_CODE ON)
