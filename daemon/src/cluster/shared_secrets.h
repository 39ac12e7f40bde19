#pragma once
// The keys every node of one service must share: the JWT secret (access, refresh and
// stream tokens), the key that seals webhook signing secrets, and the audit checkpoint
// signing key. On SQLite there is one node per store, so a key generated into the data
// dir on first start is shared by construction. On PostgreSQL several nodes serve one
// database, and a key generated per data dir would make a token issued by one node
// unknown to the next one behind the load balancer. Nor are these keys kept in the
// database: whoever can read it (a leaked backup, a read-only role) could then mint
// tokens for any user, open every sealed webhook secret, and re-sign a rewritten audit
// log. So on PostgreSQL they must come from configuration, and start-up refuses (exit 78)
// with a message naming each key to set and how to make it.
#include <Poco/Util/AbstractConfiguration.h>

#include <stdexcept>
#include <string>

namespace aev::cluster {

struct SharedSecrets {
  std::string jwtSecret;
  std::string webhookSealingKey;
  std::string auditKeyPath;  // the Ed25519 seed file (created on SQLite when absent)
};

// What is missing, for the start-up failure (several lines, one per key).
class MissingSharedSecrets : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// SQLite: configured values, else generated into (or read from) data.dir.
// PostgreSQL: auth.jwt_secret, webhooks.secret_key and audit.signing_key_file (an
// existing file) must be configured; throws MissingSharedSecrets otherwise.
SharedSecrets resolveSharedSecrets(const Poco::Util::AbstractConfiguration& cfg, bool postgres);

}  // namespace aev::cluster
