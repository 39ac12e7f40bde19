#include "app/config_defaults.h"

#include <cctype>

namespace aev::app {

const std::vector<std::pair<std::string, std::string>>& configDefaults() {
  static const std::vector<std::pair<std::string, std::string>> defaults = {
      {"http.host", "127.0.0.1"},
      {"http.port", "8080"},
      {"http.max_threads", "32"},
      {"http.max_connections", "10000"},
      {"http.keepalive_timeout_seconds", "5"},
      {"http.request_timeout_seconds", "30"},
      {"http.max_body_bytes", "1048576"},
      {"http.public_url", ""},
      {"http.cors_origins", ""},
      {"console.enabled", "true"},
      {"console.dir", ""},
      {"data.dir", "./data"},
      {"database.url", ""},
      {"database.pool_size", "8"},
      {"database.sqlite_synchronous", "FULL"},
      {"log.level", "info"},
      {"log.format", "text"},
      {"log.file", ""},
      {"auth.jwt_secret", ""},
      {"auth.jwt_issuer", "agent-events"},
      {"auth.jwt_audience", "agent-events-api"},
      {"auth.access_token_ttl_seconds", "900"},
      {"auth.refresh_token_ttl_seconds", "2592000"},
      {"auth.registration", "open"},
      {"auth.password_hash_opslimit", "2"},
      {"auth.password_hash_memlimit_kib", "19456"},
      {"auth.password_hash_concurrency", "2"},
      {"auth.login_max_failures", "5"},
      {"auth.login_failure_window_seconds", "900"},
      {"auth.api_key_cache_seconds", "auto"},
      {"metrics.access", "loopback"},
      {"plans.default", "free"},
      {"plans.free.events_quota_monthly", "100000"},
      {"plans.free.retention_days", "30"},
      {"plans.free.seat_limit", "5"},
      {"plans.team.events_quota_monthly", "5000000"},
      {"plans.team.retention_days", "90"},
      {"plans.team.seat_limit", "50"},
      {"plans.enterprise.events_quota_monthly", "100000000"},
      {"plans.enterprise.retention_days", "365"},
      {"plans.enterprise.seat_limit", "1000"},
      {"invitations.ttl_seconds", "604800"},
      {"audit.signing_key_file", ""},
      {"audit.checkpoint_interval_seconds", "300"},
      {"retention.sweep_interval_seconds", "3600"},
      {"retention.batch_size", "5000"},
      {"alerts.evaluate_interval_seconds", "30"},
      {"events.max_commit_batch", "2000"},
      {"plugins.dir", ""},
      {"stream.keepalive_seconds", "15"},
      {"stream.max_backlog_bytes", "262144"},
      {"stream.max_subscribers", "20000"},
      {"stream.max_subscribers_per_org", "10000"},
      {"stream.token_ttl_seconds", "300"},
      {"spend.policy_recheck_ms", "2000"},
      {"telemetry.prices_file", ""},
      {"outbound.allow_private_addresses", "false"},
      {"outbound.connect_timeout_ms", "5000"},
      {"outbound.timeout_ms", "15000"},
      {"outbound.max_response_bytes", "65536"},
      {"delivery.workers", "4"},
      {"delivery.retry_schedule", "5s,5m,30m,2h,5h,10h,10h"},
      {"delivery.poll_interval_ms", "1000"},
      {"delivery.lease_seconds", "120"},
      {"delivery.attempt_retention_days", "30"},
      {"webhooks.auto_disable_after_seconds", "432000"},
      {"webhooks.internal_key", ""},
      {"webhooks.secret_key", ""},
      {"exports.max_batch", "100"},
  };
  return defaults;
}

std::string envNameFor(const std::string& key) {
  std::string out = "AGENT_EVENTS_";
  for (char c : key) out += c == '.' ? '_' : static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return out;
}

}  // namespace aev::app
