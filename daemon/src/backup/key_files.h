#pragma once
// The keys a store cannot be read without, carried with its backup: the JWT secret (the
// sessions and stream tokens issued so far), the webhook sealing key (every stored webhook
// secret is sealed with it) and the audit signing key (the signed checkpoints). Each is a
// file in the backup directory named as in a data dir, mode 0600.
#include <Poco/Util/AbstractConfiguration.h>

#include <ostream>
#include <string>
#include <vector>

namespace aev::backup {

// Writes the keys this configuration uses into `dir` (from the configuration when set
// there, else from the data dir's files); returns the names written.
// `auditKeyPath` is where this configuration keeps the audit signing key.
std::vector<std::string> backUpKeys(const Poco::Util::AbstractConfiguration& cfg, const std::string& auditKeyPath,
                                    const std::string& dir);

// Puts the backup's keys where this configuration reads them. A key file already there
// with other content, or a webhook sealing key configured with another value, is refused
// (the backup's sealed secrets would be unreadable); a different JWT secret or audit key
// in the configuration is a warning written to `out`. Returns the paths written.
std::vector<std::string> restoreKeys(const Poco::Util::AbstractConfiguration& cfg, const std::string& auditKeyPath,
                                     const std::string& dir, std::ostream& out);

}  // namespace aev::backup
