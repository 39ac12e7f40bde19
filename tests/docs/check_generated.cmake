# A committed file is exactly what a generator prints: run as
#   cmake -DGENERATOR=<program> -DARGUMENT=<option> -DEXPECTED=<committed file> -DOUTPUT=<scratch file> -P check_generated.cmake
# On a difference it fails with the diff's first lines and the command that refreshes the file.
foreach(var GENERATOR ARGUMENT EXPECTED OUTPUT)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "check_generated.cmake: ${var} is not set")
  endif()
endforeach()
execute_process(COMMAND "${GENERATOR}" "${ARGUMENT}" OUTPUT_FILE "${OUTPUT}" RESULT_VARIABLE status)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "${GENERATOR} ${ARGUMENT} failed: ${status}")
endif()
execute_process(COMMAND "${CMAKE_COMMAND}" -E compare_files "${EXPECTED}" "${OUTPUT}" RESULT_VARIABLE differs)
if(differs)
  execute_process(COMMAND diff -u "${EXPECTED}" "${OUTPUT}" OUTPUT_VARIABLE diff_text)
  string(SUBSTRING "${diff_text}" 0 3000 diff_text)
  message(FATAL_ERROR "${EXPECTED} is out of date with the configuration table "
                      "(daemon/src/app/config_defaults.cpp). Refresh it with\n"
                      "  ${GENERATOR} ${ARGUMENT} > ${EXPECTED}\n${diff_text}")
endif()
message(STATUS "${EXPECTED} is current")
