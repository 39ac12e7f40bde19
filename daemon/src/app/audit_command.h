#pragma once
// `agent-eventsd audit verify [ORG_ID]`: checks audit chains straight from the store,
// without a running daemon (docs/features.md#audit-log), with the same configuration layers as the
// daemon (database.url, data.dir, audit.signing_key_file).
#include <Poco/Util/AbstractConfiguration.h>

#include <ostream>
#include <string>
#include <vector>

namespace aev::app {

// args: what follows "audit" on the command line. Returns a process exit code: 0 when
// every chain checked verifies, 65 (EX_DATAERR) when one does not, 64 (EX_USAGE) on
// bad arguments.
int runAuditCommand(const Poco::Util::AbstractConfiguration& config, const std::vector<std::string>& args,
                    std::ostream& out);

}  // namespace aev::app
