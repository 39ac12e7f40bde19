#pragma once
#include <string>

namespace aev::app {

// Installs the default spdlog logger: text or JSON lines, to stderr or a file.
void setupLogging(const std::string& level, const std::string& format, const std::string& file);

}  // namespace aev::app
