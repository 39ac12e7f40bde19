#include "cluster/shared_secrets.h"

#include <filesystem>

#include "auth/jwt.h"
#include "webhooks/secret_box.h"

namespace aev::cluster {

namespace {

std::string dataDirFile(const Poco::Util::AbstractConfiguration& cfg, const char* name) {
  return (std::filesystem::path(cfg.getString("data.dir")) / name).string();
}

// "…; the key this data dir generated earlier is <path>: set it to that file's content
// to keep what it signed or sealed valid." when such a file exists.
std::string earlierKeyHint(const std::string& path, const std::string& what) {
  if (!std::filesystem::exists(path)) return "";
  return " This data dir holds the key an earlier start generated (" + path + "): use that file's content on every " +
         "node to keep " + what + " valid.";
}

}  // namespace

SharedSecrets resolveSharedSecrets(const Poco::Util::AbstractConfiguration& cfg, bool postgres) {
  SharedSecrets s;
  s.jwtSecret = cfg.getString("auth.jwt_secret");
  s.webhookSealingKey = cfg.getString("webhooks.secret_key");
  const auto auditKeyFile = cfg.getString("audit.signing_key_file");
  if (!postgres) {
    if (s.jwtSecret.empty()) s.jwtSecret = auth::loadOrCreateSecret(cfg.getString("data.dir"));
    s.webhookSealingKey = webhooks::loadOrCreateSecretKey(s.webhookSealingKey, cfg.getString("data.dir"));
    s.auditKeyPath = auditKeyFile.empty() ? dataDirFile(cfg, "audit-signing.key") : auditKeyFile;
    return s;
  }
  std::string missing;
  if (s.jwtSecret.size() < 32) {
    missing +=
        "\n  - auth.jwt_secret (AGENT_EVENTS_AUTH_JWT_SECRET): the secret that signs access, refresh and stream "
        "tokens, at least 32 characters, the same on every node (e.g. `openssl rand -base64 48`)." +
        earlierKeyHint(dataDirFile(cfg, "jwt.secret"), "the tokens issued so far");
  }
  if (s.webhookSealingKey.size() < 32) {
    missing +=
        "\n  - webhooks.secret_key (AGENT_EVENTS_WEBHOOKS_SECRET_KEY): the key that seals webhook signing secrets in "
        "the database, at least 32 characters, the same on every node (e.g. `openssl rand -base64 32`)." +
        earlierKeyHint(dataDirFile(cfg, "webhook-secrets.key"), "the webhook secrets sealed so far");
  }
  if (auditKeyFile.empty() || !std::filesystem::exists(auditKeyFile)) {
    missing += "\n  - audit.signing_key_file (AGENT_EVENTS_AUDIT_SIGNING_KEY_FILE): " +
               (auditKeyFile.empty() ? std::string("not set") : "set, but " + auditKeyFile + " does not exist") +
               ". It is the Ed25519 seed that signs audit checkpoints; create it once (e.g. `openssl rand -base64 32 "
               "> /etc/agent-events/audit-signing.key; chmod 600 /etc/agent-events/audit-signing.key`) and copy the "
               "same file to every node." +
               earlierKeyHint(dataDirFile(cfg, "audit-signing.key"), "the checkpoints signed so far verifiable");
  }
  if (!missing.empty()) {
    throw MissingSharedSecrets(
        "on PostgreSQL every node of the service must share these keys, and they are not kept in the database (a "
        "database reader could forge tokens with them); configure them in the properties file or the environment:" +
        missing);
  }
  s.auditKeyPath = auditKeyFile;
  return s;
}

}  // namespace aev::cluster
