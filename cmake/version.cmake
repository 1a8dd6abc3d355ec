# Writes OUTPUT with the git description of SOURCE_DIR and the release number FALLBACK (the
# project's version); rewrites only when it changed.
execute_process(COMMAND git -C "${SOURCE_DIR}" describe --always --dirty --tags
                OUTPUT_VARIABLE describe OUTPUT_STRIP_TRAILING_WHITESPACE
                RESULT_VARIABLE result ERROR_QUIET)
if(NOT result EQUAL 0 OR describe STREQUAL "")
  set(describe "${FALLBACK}-unknown")
endif()
set(content "#pragma once\nnamespace gbesim {\n// The git description of the source tree built, and the project's release number.\ninline constexpr const char* kVersion = \"${describe}\";\ninline constexpr const char* kRelease = \"${FALLBACK}\";\n}\n")
if(EXISTS "${OUTPUT}")
  file(READ "${OUTPUT}" old)
endif()
if(NOT "${old}" STREQUAL "${content}")
  file(WRITE "${OUTPUT}" "${content}")
endif()
