# docs/ops.md (DOC) must hold `glpool ops`'s output (COMMAND) verbatim: the
# page cannot fall behind the registries. scripts/update-ops-doc.sh
# rewrites it.
execute_process(COMMAND ${COMMAND} ops RESULT_VARIABLE result OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT result EQUAL 0)
  message(FATAL_ERROR "glpool ops exited ${result}: ${err}")
endif()
file(READ ${DOC} page)
string(FIND "${page}" "${out}" at)
if(at EQUAL -1)
  message(FATAL_ERROR "${DOC} differs from `glpool ops`: run `bash scripts/update-ops-doc.sh` and commit the page")
endif()
