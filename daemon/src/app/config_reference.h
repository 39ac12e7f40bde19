#pragma once
// The written configuration reference, printed from the one table of config_defaults.h:
// docs/configuration.md (`agent-eventsd --print-config-reference`) and the annotated
// config/agent-eventsd.properties that the package installs (`--print-config-file`).
// Both files are committed; tests/docs/ checks that they are what these print.
#include <ostream>

namespace aev::app {

void writeConfigReferenceMarkdown(std::ostream& out);
void writeConfigPropertiesFile(std::ostream& out);

}  // namespace aev::app
