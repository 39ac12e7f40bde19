# aev_add_plugin(): build an agent-events plugin (a shared object the daemon loads).
#
#   aev_add_plugin(<name>
#                  SOURCES <file>...
#                  [HTTP]                      # link libcurl for aev/http_post.hpp
#                  [LINK_LIBRARIES <lib>...]
#                  [OUTPUT_DIRECTORY <dir>]    # where the .so is built
#                  [INSTALL_DIR <dir>]         # default: ${AEV_PLUGIN_INSTALL_DIR}
#                  [NO_INSTALL])
#
# Produces <name>.so (no "lib" prefix) with hidden visibility, no undefined symbols, and a
# version script that exports only aev_plugin_manifest_v1 / aev_plugin_register_v1, so a
# plugin cannot clash with the daemon or with another plugin. Works in the agent-events
# tree and out of tree after find_package(AgentEventsSDK).
include_guard(GLOBAL)

# A global property, so aev_add_plugin() finds exports.map from any directory scope.
set_property(GLOBAL PROPERTY AEV_SDK_CMAKE_DIR "${CMAKE_CURRENT_LIST_DIR}")
set(AEV_PLUGIN_INSTALL_DIR "lib/agent-events/plugins" CACHE STRING
    "Where aev_add_plugin() installs plugins, relative to CMAKE_INSTALL_PREFIX")

function(aev_add_plugin name)
  cmake_parse_arguments(PARSE_ARGV 1 ARG "HTTP;NO_INSTALL" "OUTPUT_DIRECTORY;INSTALL_DIR" "SOURCES;LINK_LIBRARIES")
  if(NOT ARG_SOURCES)
    message(FATAL_ERROR "aev_add_plugin(${name}): SOURCES is required")
  endif()

  get_property(sdk_cmake_dir GLOBAL PROPERTY AEV_SDK_CMAKE_DIR)
  add_library(${name} MODULE ${ARG_SOURCES})
  set_target_properties(${name} PROPERTIES
    PREFIX ""
    C_VISIBILITY_PRESET hidden
    CXX_VISIBILITY_PRESET hidden
    VISIBILITY_INLINES_HIDDEN ON
    LINK_DEPENDS "${sdk_cmake_dir}/exports.map")
  target_compile_features(${name} PRIVATE cxx_std_17)
  target_link_libraries(${name} PRIVATE AgentEvents::PluginSdk ${ARG_LINK_LIBRARIES})
  if(ARG_HTTP)
    if(NOT TARGET AgentEvents::PluginSdkHttp)
      message(FATAL_ERROR "aev_add_plugin(${name} HTTP): libcurl was not found (Debian: libcurl4-openssl-dev)")
    endif()
    target_link_libraries(${name} PRIVATE AgentEvents::PluginSdkHttp)
  endif()
  if(CMAKE_SYSTEM_NAME STREQUAL "Linux")
    target_link_options(${name} PRIVATE
      "LINKER:--no-undefined"
      "LINKER:--version-script=${sdk_cmake_dir}/exports.map")
  endif()
  if(ARG_OUTPUT_DIRECTORY)
    set_target_properties(${name} PROPERTIES LIBRARY_OUTPUT_DIRECTORY "${ARG_OUTPUT_DIRECTORY}")
  endif()
  if(NOT ARG_NO_INSTALL)
    set(dest "${AEV_PLUGIN_INSTALL_DIR}")
    if(ARG_INSTALL_DIR)
      set(dest "${ARG_INSTALL_DIR}")
    endif()
    install(TARGETS ${name} LIBRARY DESTINATION "${dest}" COMPONENT plugins)
  endif()
endfunction()
