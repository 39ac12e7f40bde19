#pragma once
// `agent-eventsd backup DIR`, `agent-eventsd restore DIR` and
// `agent-eventsd restore --in-place` (backup/store_backup.h), with the same configuration
// layers as the daemon (database.url, data.dir, the key settings).
#include <Poco/Util/AbstractConfiguration.h>

#include <ostream>
#include <string>
#include <vector>

namespace aev::app {

// args: the words after "backup". 0 when done, 64 on bad arguments, 74 (EX_IOERR) when
// the backup could not be written, 78 when the store cannot be backed up by this build.
int runBackupCommand(const Poco::Util::AbstractConfiguration& config, const std::vector<std::string>& args,
                     std::ostream& out);

// args: the words after "restore"; inPlace: --in-place was given.
int runRestoreCommand(const Poco::Util::AbstractConfiguration& config, const std::vector<std::string>& args,
                      bool inPlace, std::ostream& out);

// The command line an operator runs to restore the configured store in place, for the
// start-up refusal of a store restored by hand.
std::string restoreInPlaceHint(const Poco::Util::AbstractConfiguration& config);

}  // namespace aev::app
