# Installs the SDK of this build tree into a staging prefix, then configures and builds
# sdk/examples/detector_example against it with find_package(AgentEventsSDK): the same
# steps a third party takes with the installed package.
foreach(v AEV_BUILD_DIR AEV_STAGE AEV_EXAMPLE_SOURCE AEV_EXAMPLE_BUILD)
  if(NOT DEFINED ${v})
    message(FATAL_ERROR "${v} is required")
  endif()
endforeach()

function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "failed (${rc}): ${ARGN}")
  endif()
endfunction()

file(REMOVE_RECURSE "${AEV_STAGE}" "${AEV_EXAMPLE_BUILD}")
run(${CMAKE_COMMAND} --install "${AEV_BUILD_DIR}" --component sdk --prefix "${AEV_STAGE}")
run(${CMAKE_COMMAND} -S "${AEV_EXAMPLE_SOURCE}" -B "${AEV_EXAMPLE_BUILD}"
    -DCMAKE_PREFIX_PATH=${AEV_STAGE} -DCMAKE_BUILD_TYPE=RelWithDebInfo)
run(${CMAKE_COMMAND} --build "${AEV_EXAMPLE_BUILD}" -j2)
