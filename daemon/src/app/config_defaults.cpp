#include "app/config_defaults.h"

#include <cctype>

namespace aev::app {

const std::vector<ConfigKey>& configKeys() {
  static const std::vector<ConfigKey> keys = {
      {"config.unknown_keys", "error",
       "What an unknown key in the configuration file, an AGENT_EVENTS_* variable or --set "
       "does: error (start-up fails with exit status 78, naming the key and the nearest "
       "known one) or warn (logged and ignored: for a file shared by daemons of different "
       "versions). Plugin settings, plugins.<plugin>.<setting>, are the plugin's and never "
       "unknown here."},
      {"http.host", "127.0.0.1", "Address to listen on; 0.0.0.0 (or ::) listens on every interface."},
      {"http.port", "8080", "TCP port to listen on."},
      {"http.max_threads", "32",
       "Threads that read, parse and answer requests. Connections wait in one epoll set and "
       "hold no thread while idle or while a request is still arriving; a thread is busy for "
       "as long as its handler runs (a publish waits for its group commit), so this bounds "
       "how many requests run at once."},
      {"http.max_connections", "10000",
       "Open request connections; beyond it new ones get 503 and are closed. SSE streams are "
       "held by the stream hub and counted by stream.max_subscribers instead."},
      {"http.keepalive_timeout_seconds", "5", "Seconds an idle keep-alive connection stays open."},
      {"http.request_timeout_seconds", "30",
       "Seconds a request may take to arrive whole (head and body) once its first byte is "
       "in; slower senders are disconnected (slow-header attacks hold no thread meanwhile)."},
      {"http.max_body_bytes", "1048576", "Largest request body accepted; larger bodies get 413."},
      {"http.public_url", "",
       "Public base URL (e.g. https://events.example.com) of every link the daemon writes "
       "(`$schema`, an alert's url): an absolute http(s) URL. Empty: links name the "
       "request's Host header, admitted only as host[:port]. Set it in production."},
      {"http.cors_origins", "",
       "Comma-separated browser origins allowed by CORS (exact match; * allows any). None by "
       "default."},
      {"cluster.wakeup", "notify",
       "How a node learns that another node committed events its subscribers follow (the "
       "events themselves are always read from the store, by per-channel seq): notify, a "
       "doorbell (pg_notify after each commit, on its own connection) heard on one LISTEN "
       "connection per node, with the poll below as the safety net; or poll, the poll only "
       "(behind PgBouncer in transaction pooling, where LISTEN hears nothing; cross-node "
       "latency is then up to one poll interval). Ignored on SQLite (one node per store)."},
      {"cluster.poll_interval_ms", "1000",
       "Milliseconds between checks of the held channels' positions (one primary-key read of "
       "the channels subscribers hold on this node). With notify: the safety net for lost "
       "doorbells (a quarter of it, at most 250 ms, while the LISTEN connection is down). "
       "With poll: the cross-node latency; 100-250 is a sensible range."},
      {"cluster.notify_in_transaction", "false",
       "Benchmark only: send the doorbell inside the event transaction instead of after it. "
       "It serialises every node's commits on PostgreSQL's notification lock."},
      {"console.enabled", "true",
       "Serve the web console at /console/ (files compiled into the binary). false removes "
       "its routes; the API is unchanged."},
      {"console.dir", "",
       "Serve the console's files from this folder instead of the binary, re-read on every "
       "request (for developing the console). Empty: the compiled-in files."},
      {"data.dir", "./data",
       "Directory for the SQLite database, the generated JWT secret, the audit signing key "
       "and the webhook sealing key."},
      {"database.url", "",
       "Empty: SQLite file agent-events.db in data.dir (WAL). A postgresql:// URL selects "
       "PostgreSQL, e.g. "
       "postgresql://agent:secret@127.0.0.1:5432/agent_events?sslmode=require"},
      {"database.pool_size", "8", "Database connections held by the pool."},
      {"database.postgresql_settings", "jit=off, random_page_cost=1.1",
       "PostgreSQL only: run-time settings (name=value, separated by commas) given to each "
       "of the daemon's sessions as it opens, over the server's and the URL's. The defaults "
       "make the console's heaviest queries on 1M events 2.5-3 times faster: JIT compiles for 50-120 ms on "
       "queries of 0.1-0.5 s, and 1.1 (PostgreSQL's own advice for SSDs or cached data) "
       "keeps its planner on the (organization, time) indexes. Empty: the server's "
       "settings. A setting PostgreSQL refuses stops start-up."},
      {"database.sqlite_synchronous", "FULL",
       "SQLite durability: FULL (fsync each commit, the default) or NORMAL (WAL-safe, may "
       "lose the last transactions on power loss, never corrupts); also EXTRA and OFF. Any "
       "other value refuses to start (SQLite itself would quietly read it as NORMAL)."},
      {"log.level", "info", "trace, debug, info, warn, error, critical, off. One access line per request at info."},
      {"log.format", "text", "text or json (one JSON object per line)."},
      {"log.file", "", "Empty: standard error (journald under systemd). Otherwise a file path."},
      {"auth.jwt_secret", "",
       "HS256 signing secret for access tokens (at least 32 bytes). Empty: generated on "
       "first start into data.dir/jwt.secret (mode 0600) and reused."},
      {"auth.jwt_issuer", "agent-events", "The `iss` claim of access tokens; tokens with another issuer are refused."},
      {"auth.jwt_audience", "agent-events-api",
       "The `aud` claim of access tokens; tokens for another audience are refused."},
      {"auth.access_token_ttl_seconds", "900", "Lifetime of an access token, in seconds (15 minutes)."},
      {"auth.refresh_token_ttl_seconds", "2592000",
       "Lifetime of a refresh token, in seconds (30 days). Each refresh rotates it."},
      {"auth.registration", "open",
       "Who may register: open, approval (accounts wait for the instance admin), closed. The "
       "first account ever registered is always allowed and is the instance admin."},
      {"auth.password_hash_opslimit", "2",
       "Argon2id time cost (passes). With the memory cost below, the OWASP baseline t=2, "
       "m=19 MiB."},
      {"auth.password_hash_memlimit_kib", "19456", "Argon2id memory cost, in KiB."},
      {"auth.password_hash_concurrency", "2",
       "Password hashes computed at once; more concurrent logins queue instead of starving "
       "other requests."},
      {"auth.login_max_failures", "5",
       "Failed logins allowed per account within the window before 429 (per client address "
       "the allowance is four times this)."},
      {"auth.login_failure_window_seconds", "900", "Window, in seconds, over which failed logins are counted."},
      {"auth.api_key_cache_seconds", "auto",
       "Seconds a verified API key is remembered, sparing publishes a database read "
       "(\"auto\": 30; 0 turns it off). Revoking a key or deleting its organization forgets "
       "it at once: on this node directly, on other nodes sharing one PostgreSQL through a "
       "LISTEN/NOTIFY change feed sent in the revoking transaction. A node whose feed "
       "connection is down stops using the cache until it is back."},
      {"metrics.access", "loopback",
       "Who may read /metrics: loopback (public from 127.0.0.1/::1, else the instance "
       "admin), public, or admin."},
      {"plans.default", "free", "Plan given to new organizations: free, team or enterprise."},
      {"plans.free.events_quota_monthly", "100000",
       "Events an organization on the free plan may publish per calendar month (UTC); beyond "
       "it 429."},
      {"plans.free.retention_days", "30", "Days the events of a free-plan organization are kept (0: forever)."},
      {"plans.free.seat_limit", "5",
       "Members plus pending invitations a free-plan organization may have (409 beyond)."},
      {"plans.team.events_quota_monthly", "5000000",
       "Events an organization on the team plan may publish per calendar month (UTC); beyond "
       "it 429."},
      {"plans.team.retention_days", "90", "Days the events of a team-plan organization are kept (0: forever)."},
      {"plans.team.seat_limit", "50",
       "Members plus pending invitations a team-plan organization may have (409 beyond)."},
      {"plans.enterprise.events_quota_monthly", "100000000",
       "Events an organization on the enterprise plan may publish per calendar month (UTC); "
       "beyond it 429."},
      {"plans.enterprise.retention_days", "365",
       "Days the events of a enterprise-plan organization are kept (0: forever)."},
      {"plans.enterprise.seat_limit", "1000",
       "Members plus pending invitations a enterprise-plan organization may have (409 "
       "beyond)."},
      {"invitations.ttl_seconds", "604800", "Seconds an invitation code stays valid (7 days)."},
      {"retention.sweep_interval_seconds", "3600",
       "Seconds between sweeps that delete events older than their organization's plan "
       "retention_days (0 turns the sweep off)."},
      {"retention.batch_size", "5000",
       "Most events one retention transaction deletes, so publishing never waits long behind "
       "the sweep."},
      {"analytics.rollup_reads", "true",
       "Answer /analytics/* from the minute, hour and UTC-day rollups kept with the events "
       "(counts and sums exact, percentiles within 1 %; docs/features.md#analytics-rollups). "
       "false: read raw events only (exact percentiles, slower over long windows). The rollups "
       "are written either way (see analytics.rollup_writes)."},
      {"analytics.rollup_writes", "true",
       "Internal, for benchmarks (bench/ab.sh measures publishing with and without the rollup "
       "writes on one build): false stops writing the analytics rollups, empties them and "
       "marks them stale, so analytics reads raw events; the next start with true rebuilds "
       "them in the background backfill. One node only: other nodes sharing a PostgreSQL "
       "store would keep reading the emptied rollups."},
      {"alerts.evaluate_interval_seconds", "30",
       "Seconds between evaluations of every enabled alert rule (/v2/alerts). With several "
       "nodes on one PostgreSQL, one of them applies each round."},
      {"audit.signing_key_file", "",
       "Ed25519 key (base64 of a 32-byte seed) that signs checkpoints of each organization's "
       "audit chain. Empty: data.dir/audit-signing.key, generated on first start (mode "
       "0600). Keep it outside the database (that is what makes a rewritten chain "
       "detectable) and give every node sharing one PostgreSQL the same file."},
      {"audit.checkpoint_interval_seconds", "300",
       "Seconds between signed checkpoints of every chain that moved (0 turns them off; GET "
       "/audit-logs/verify still signs one each time the chain verifies)."},
      {"events.max_commit_batch", "2000", "Most events one group commit (one transaction, one fsync) may hold."},
      {"stream.keepalive_seconds", "15", "Seconds between `: keep-alive` comments on an idle stream."},
      {"stream.max_backlog_bytes", "262144",
       "Bytes a subscriber may fall behind before it is disconnected (it resumes with "
       "Last-Event-ID, so nothing is lost)."},
      {"stream.max_subscribers", "20000",
       "Open streams the hub holds at most (each needs a file descriptor: raise "
       "LimitNOFILE)."},
      {"stream.max_subscribers_per_org", "10000",
       "Open streams one organization may hold; beyond it a new stream gets 429 with "
       "Retry-After, so that one tenant cannot take the whole hub."},
      {"stream.token_ttl_seconds", "300", "Seconds a token from POST /stream-tokens may be used to connect."},
      {"spend.policy_recheck_ms", "2000",
       "Milliseconds a node serves an organization's cached spend policies before reading "
       "them again: a change made on this node applies at once; one made on another node "
       "sharing the PostgreSQL store (or an environment renamed) is seen within this time."},
      {"telemetry.prices_file", "",
       "Model prices (USD per million input/output tokens) that give an event its cost_usd "
       "when it reports token usage but no cost. config/prices.json is built in; a file "
       "named here (same format) is laid over it entry by entry. A file that does not parse "
       "stops start-up."},
      {"telemetry.max_message_chars", "32768",
       "Characters of prompt and completion text an LLM call keeps in payload.messages "
       "(every convention's messages are normalised there): past it, text is cut, whole "
       "characters kept, and marked with \"\u2026[+N chars]\"."},
      {"outbound.allow_private_addresses", "false",
       "Outbound requests (webhooks, export destinations, alert sinks) use http/https only, "
       "never follow redirects, and check the address actually connected to at every "
       "attempt: loopback, private, link-local and metadata ranges are refused unless this "
       "is true (for receivers on the deployment's own network). A refused URL is a 422 when "
       "an endpoint is created."},
      {"outbound.connect_timeout_ms", "5000", "Milliseconds to connect (DNS, TCP, TLS) for an outbound request."},
      {"outbound.timeout_ms", "15000", "Milliseconds for a whole outbound attempt."},
      {"outbound.max_response_bytes", "65536",
       "Bytes of a receiver's answer read at most (4 KiB of it are kept in the attempt log)."},
      {"delivery.workers", "4",
       "Worker threads delivering outbox messages; one slow receiver holds one of them at "
       "most."},
      {"delivery.retry_schedule", "5s,5m,30m,2h,5h,10h,10h",
       "Waits before each retry of a failed delivery (units ms, s, m, h, d), ±10% jitter, "
       "never sooner than a Retry-After the receiver sent. After the last step the message "
       "has failed."},
      {"delivery.poll_interval_ms", "1000",
       "Milliseconds between looks at the outbox when nothing woke the workers (new messages "
       "written on this node wake them at once; retries and other nodes' messages wait for "
       "this)."},
      {"delivery.lease_seconds", "120",
       "Seconds a worker holds a message it took; a node that dies holding one releases it "
       "when this runs out. Must exceed outbound.timeout_ms."},
      {"delivery.attempt_retention_days", "30",
       "Days the attempt log (GET /webhooks/deliveries/..., export deliveries) keeps an "
       "attempt."},
      {"webhooks.auto_disable_after_seconds", "432000",
       "An endpoint failing without a single success for this many seconds is disabled "
       "(active false, its queue dropped); PATCH active: true enables it again. Default 5 "
       "days."},
      {"webhooks.internal_key", "",
       "The key POST /webhooks/ingest/:endpointId requires in x-internal-key (the service's "
       "own tooling; clients get 403). Empty: the route refuses everyone."},
      {"webhooks.secret_key", "",
       "The key that seals endpoint signing secrets in the database (at least 32 "
       "characters). Empty: <data.dir>/webhook-secrets.key, created on first start. Nodes "
       "sharing one PostgreSQL must all use the same key; losing it makes stored secrets "
       "unusable (deliveries fail naming it; create the endpoints again)."},
      {"exports.max_batch", "100", "Most events one export batch carries (one exporter call per signal)."},
      {"mcp.allowed_origins", "",
       "Comma-separated browser origins allowed to call POST /mcp (exact match). Empty: any "
       "request that carries an Origin header is refused with 403; clients that send none "
       "(command-line agents) pass."},
      {"mcp.rate_limit_per_minute", "120",
       "MCP requests one API key may make per minute; beyond it 429 with Retry-After."},
      {"mcp.max_body_bytes", "65536", "Largest POST /mcp body accepted; larger bodies get 413."},
      {"plugins.dir", "",
       "Directories of plugin shared objects (*.so), loaded at start-up in the order given "
       "(a comma-separated list, e.g. the standard directory and one under development). "
       "Empty: ../lib/agent-events/plugins next to the executable "
       "(/usr/lib/agent-events/plugins when installed). A plugin reads its own keys "
       "plugins.<plugin name>.*; plugins.<name>.enabled = false keeps it from loading "
       "(docs/plugins.md)."},
  };
  return keys;
}

const std::vector<std::pair<std::string, std::string>>& configDefaults() {
  static const std::vector<std::pair<std::string, std::string>> defaults = [] {
    std::vector<std::pair<std::string, std::string>> pairs;
    for (const auto& entry : configKeys()) pairs.emplace_back(entry.key, entry.defaultValue);
    return pairs;
  }();
  return defaults;
}

std::string envNameFor(const std::string& key) {
  std::string out = "AGENT_EVENTS_";
  for (char c : key) out += c == '.' ? '_' : static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return out;
}

}  // namespace aev::app
