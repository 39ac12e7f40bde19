# The Debian package: one agent-events_<version>_<arch>.deb holding everything install()
# knows about (daemon, standard plugins, configuration, systemd unit, plugin SDK, docs).
# Tests have no install() rules, so a build with tests packages the same files.
# `make package` builds it; packaging/check-deb.sh installs it and exercises it.
set(AEV_PACKAGE_MAINTAINER "agent-events maintainers <maintainers@agent-events.invalid>"
    CACHE STRING "Maintainer field of the Debian package")

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME agent-events)
set(CPACK_PACKAGE_VERSION "${PROJECT_VERSION}")
set(CPACK_PACKAGE_CONTACT "${AEV_PACKAGE_MAINTAINER}")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "self-hosted event daemon for AI-agent applications")
# The long description; CPack indents it and puts the summary above it as the synopsis.
set(CPACK_DEBIAN_PACKAGE_DESCRIPTION "agent-eventsd ingests events from AI-agent applications, stores them (SQLite or
PostgreSQL) and streams them to subscribers over Server-Sent Events, with
accounts, organizations and API keys built in.

Includes the standard plugins, a hardened systemd unit, and the plugin SDK
(headers and the AgentEventsSDK CMake package) for building third-party plugins.")
set(CPACK_DEBIAN_PACKAGE_SECTION net)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)   # agent-events_<version>_<arch>.deb
set(CPACK_PACKAGE_DIRECTORY "${CMAKE_BINARY_DIR}/package")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
# The package is built as RelWithDebInfo (-O2 -g, then stripped): the build type every
# figure in bench/README.md was measured with (bench/run.sh and bench/analytics.sh build
# RelWithDebInfo; ab.sh and moderation.sh run the binaries of such a tree), and the one
# `make test` builds, so CI packages the very tree it has just tested, with no second
# build. `make package` packages build/, which `make` configures that way, and
# packaging/check-deb.sh (CI) refuses a tree of another type. Release (-O3) builds and
# passes the tests too (CONTRIBUTING.md), but it is not what was measured.
set(CPACK_STRIP_FILES ON)

# Library dependencies (Poco, spdlog, libsodium, libpq, libcurl4 for the HTTP plugins...)
# come from dpkg-shlibdeps (package dpkg-dev), so they follow whatever the build linked.
# adduser runs in postinst. The SDK needs a compiler and CMake only to build plugins.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_DEPENDS "adduser")
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "cmake, g++, libcurl4-openssl-dev, postgresql")

set(CPACK_DEBIAN_PACKAGE_CONTROL_EXTRA
  "${CMAKE_CURRENT_LIST_DIR}/debian/postinst"
  "${CMAKE_CURRENT_LIST_DIR}/debian/prerm"
  "${CMAKE_CURRENT_LIST_DIR}/debian/postrm"
  "${CMAKE_CURRENT_LIST_DIR}/debian/conffiles")
# Maintainer scripts 0755, conffiles 0644, whatever the checkout's modes.
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)

include(CPack)
