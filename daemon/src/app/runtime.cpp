#include "app/runtime.h"

#include <Poco/Exception.h>
#include <Poco/StringTokenizer.h>
#include <Poco/URI.h>
#include <spdlog/spdlog.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "alerts/alert_evaluator.h"
#include "alerts/alert_service.h"
#include "analytics/analytics_service.h"
#include "analytics/rollup_backfill.h"
#include "app/backup_command.h"
#include "apps/app_service.h"
#include "audit/audit_log.h"
#include "audit/checkpoint_signer.h"
#include "auth/api_key_service.h"
#include "auth/authenticator.h"
#include "auth/jwt.h"
#include "auth/login_throttle.h"
#include "auth/password_hasher.h"
#include "auth/session_service.h"
#include "auth/stream_tokens.h"
#include "cluster/fan_out.h"
#include "cluster/shared_secrets.h"
#include "common/clock.h"
#include "common/crypto.h"
#include "common/periodic_task.h"
#include "console/site.h"
#include "delivery/delivery_engine.h"
#include "delivery/outbound_http.h"
#include "events/after_commit.h"
#include "events/event_service.h"
#include "events/event_writer.h"
#include "events/publisher.h"
#include "events/quota_guard.h"
#include "events/retention_sweeper.h"
#include "exports/destination_service.h"
#include "exports/export_outbox.h"
#include "exports/export_sender.h"
#include "exports/exporter_pool.h"
#include "http/context.h"
#include "http/router.h"
#include "http/server.h"
#include "identity/environment_service.h"
#include "identity/organization_service.h"
#include "identity/plans.h"
#include "identity/user_service.h"
#include "ingest/problem_log.h"
#include "mcp/options.h"
#include "moderation/moderator.h"
#include "moderation/rule_cache.h"
#include "moderation/rule_service.h"
#include "moderation/violation_service.h"
#include "notifications/sink_sender.h"
#include "plugins/settings.h"
#include "spend/accountant.h"
#include "spend/policy_cache.h"
#include "spend/policy_service.h"
#include "store/alert_repository.h"
#include "store/change_feed.h"
#include "store/database.h"
#include "store/database_url.h"
#include "store/migrations.h"
#include "store/rollup_writer.h"
#include "store/spend_ledger_repository.h"
#include "store/store_identity.h"
#include "store/user_repository.h"
#include "stream/hub.h"
#include "telemetry/extractor.h"
#include "traces/trace_facet_backfill.h"
#include "traces/trace_service.h"
#include "webhooks/event_outbox.h"
#include "webhooks/webhook_sender.h"
#include "webhooks/webhook_service.h"

namespace aev::app {

namespace {

std::vector<std::string> splitList(const std::string& text) {
  std::vector<std::string> out;
  Poco::StringTokenizer tok(text, ",", Poco::StringTokenizer::TOK_TRIM | Poco::StringTokenizer::TOK_IGNORE_EMPTY);
  for (const auto& t : tok) out.push_back(t);
  return out;
}

// http.public_url: the base of every link the daemon writes ($schema, an alert's url).
// Empty: links name the Host a request arrived with (the front end refuses any Host that
// is not a host[:port]). Otherwise an absolute http(s) URL with a host and no query or
// fragment, kept without its trailing '/'.
std::string publicUrlFrom(const Poco::Util::AbstractConfiguration& cfg) {
  std::string url = cfg.getString("http.public_url");
  if (url.empty()) return url;
  const auto refuse = [&](const std::string& why) {
    throw std::invalid_argument("http.public_url '" + url + "' " + why);
  };
  Poco::URI uri;
  try {
    uri = Poco::URI(url);
  } catch (const Poco::Exception&) {
    refuse("is not a URL");
  }
  if (uri.getScheme() != "http" && uri.getScheme() != "https") refuse("must start with http:// or https://");
  if (uri.getHost().empty()) refuse("must name a host");
  if (!uri.getRawQuery().empty() || !uri.getFragment().empty() || !uri.getUserInfo().empty())
    refuse("must not carry user info, a query or a fragment");
  while (!url.empty() && url.back() == '/') url.pop_back();
  return url;
}

identity::PlanCatalog plansFrom(const Poco::Util::AbstractConfiguration& cfg) {
  std::map<std::string, identity::Plan> plans;
  for (const char* name : {"free", "team", "enterprise"}) {
    const std::string base = std::string("plans.") + name + ".";
    plans[name] = identity::Plan{name, cfg.getInt64(base + "events_quota_monthly"),
                                 cfg.getInt64(base + "retention_days"), cfg.getInt64(base + "seat_limit")};
  }
  return identity::PlanCatalog(std::move(plans), cfg.getString("plans.default"));
}

// The built-in model prices, with telemetry.prices_file laid over them when set.
telemetry::PriceTable pricesFrom(const Poco::Util::AbstractConfiguration& cfg) {
  auto prices = telemetry::PriceTable::builtIn();
  const auto path = cfg.getString("telemetry.prices_file");
  if (!path.empty()) {
    std::ifstream in(path);
    if (!in) throw std::runtime_error("telemetry.prices_file: cannot read " + path);
    std::stringstream text;
    text << in.rdbuf();
    prices.overlay(text.str(), path);
    spdlog::info("model prices: {} entries (built-in + {})", prices.size(), path);
  }
  return prices;
}

// auth.api_key_cache_seconds: "auto" caches keys for 30 s. On SQLite local invalidation
// is complete (one node per store); on PostgreSQL other nodes' revocations arrive through
// the change feed, and the cache is off whenever that feed is down.
std::chrono::seconds apiKeyCacheTtl(const Poco::Util::AbstractConfiguration& cfg) {
  const auto text = cfg.getString("auth.api_key_cache_seconds");
  if (text == "auto") return std::chrono::seconds(30);
  try {
    const auto seconds = std::stoll(text);
    if (seconds >= 0) return std::chrono::seconds(seconds);
  } catch (...) {
  }
  throw std::runtime_error("auth.api_key_cache_seconds must be auto or a number of seconds ≥ 0, not " + text);
}

// The analytics dimensions are those the dimension plugins provide.
std::vector<std::string> dimensionNames(const plugins::Host& host) {
  std::vector<std::string> names;
  for (const auto& d : host.registry().dimensions()) names.push_back(d->info().name);
  return names;
}

delivery::OutboundPolicy outboundFrom(const Poco::Util::AbstractConfiguration& cfg) {
  delivery::OutboundPolicy p;
  p.allowPrivateAddresses = cfg.getBool("outbound.allow_private_addresses");
  p.connectTimeout = std::chrono::milliseconds(std::max<std::int64_t>(1, cfg.getInt64("outbound.connect_timeout_ms")));
  p.timeout = std::chrono::milliseconds(std::max<std::int64_t>(1, cfg.getInt64("outbound.timeout_ms")));
  p.maxResponseBytes = static_cast<std::size_t>(std::max<std::int64_t>(0, cfg.getInt64("outbound.max_response_bytes")));
  return p;
}

mcp::Options mcpFrom(const Poco::Util::AbstractConfiguration& cfg) {
  mcp::Options o;
  o.allowedOrigins = splitList(cfg.getString("mcp.allowed_origins"));
  o.callsPerMinute = std::max(1, cfg.getInt("mcp.rate_limit_per_minute"));
  o.maxBodyBytes = static_cast<std::size_t>(std::max<std::int64_t>(1024, cfg.getInt64("mcp.max_body_bytes")));
  return o;
}

delivery::EngineOptions deliveryFrom(const Poco::Util::AbstractConfiguration& cfg) {
  delivery::EngineOptions o;
  o.workers = std::max(1, cfg.getInt("delivery.workers"));
  try {
    o.schedule = delivery::RetrySchedule::parse(cfg.getString("delivery.retry_schedule"));
  } catch (const std::invalid_argument& e) {
    throw std::runtime_error(std::string("delivery.retry_schedule: ") + e.what());
  }
  o.pollInterval = std::chrono::milliseconds(std::max<std::int64_t>(10, cfg.getInt64("delivery.poll_interval_ms")));
  o.attemptRetention =
      std::chrono::hours(24 * std::max<std::int64_t>(1, cfg.getInt64("delivery.attempt_retention_days")));
  // The lease must outlast an attempt, or a slow attempt's message would be taken twice.
  const auto attempt = std::chrono::milliseconds(cfg.getInt64("outbound.timeout_ms"));
  o.lease = std::max<std::chrono::milliseconds>(std::chrono::seconds(cfg.getInt64("delivery.lease_seconds")),
                                                2 * attempt + std::chrono::seconds(5));
  return o;
}

// cluster.*: how this node learns of other nodes' events (PostgreSQL only).
cluster::FanOutOptions fanOutFrom(const Poco::Util::AbstractConfiguration& cfg) {
  cluster::FanOutOptions o;
  const auto wakeup = cfg.getString("cluster.wakeup");
  if (wakeup == "notify")
    o.wakeup = cluster::Wakeup::Notify;
  else if (wakeup == "poll")
    o.wakeup = cluster::Wakeup::Poll;
  else
    throw std::runtime_error("cluster.wakeup must be notify or poll, not " + wakeup);
  const auto interval = cfg.getInt64("cluster.poll_interval_ms");
  if (interval < 10 || interval > 3600000)
    throw std::runtime_error("cluster.poll_interval_ms must be between 10 and 3600000, not " +
                             std::to_string(interval));
  o.pollInterval = std::chrono::milliseconds(interval);
  o.notifyInTransaction = cfg.getBool("cluster.notify_in_transaction");
  // Distinct per process (a restarted node is a new one): doorbells name their sender.
  o.node = crypto::sha256Hex(crypto::randomBytes(16)).substr(0, 12);
  return o;
}

}  // namespace

store::DatabaseOptions databaseOptionsFrom(const Poco::Util::AbstractConfiguration& cfg, int poolSize) {
  store::DatabaseOptions o;
  o.url = cfg.getString("database.url");
  o.dataDir = cfg.getString("data.dir");
  o.poolSize = poolSize;
  o.sqliteSynchronous = cfg.getString("database.sqlite_synchronous");
  o.postgresSettings = cfg.getString("database.postgresql_settings");
  return o;
}

std::string auditKeyPath(const Poco::Util::AbstractConfiguration& cfg) {
  const auto configured = cfg.getString("audit.signing_key_file");
  return configured.empty() ? (std::filesystem::path(cfg.getString("data.dir")) / "audit-signing.key").string()
                            : configured;
}

std::unique_ptr<plugins::Host> makePluginHost(const Poco::Util::AbstractConfiguration& cfg,
                                              plugins::LoadReport& report) {
  plugins::HostOptions options;
  options.config = plugins::collectPluginSettings(cfg);
  auto host = std::make_unique<plugins::Host>(std::move(options));
  const auto dirs = cfg.getString("plugins.dir", "");
  Poco::StringTokenizer list(dirs, ",", Poco::StringTokenizer::TOK_TRIM | Poco::StringTokenizer::TOK_IGNORE_EMPTY);
  if (list.count() == 0) {
    report = host->loadDirectory(plugins::defaultPluginDirectory(cfg.getString("application.path", "")));
    return host;
  }
  for (const auto& dir : list) report.merge(host->loadDirectory(dir));
  return host;
}

// A plugins.<name>.* key of no plugin is an unknown key like any other: an error, or a
// warning when config.unknown_keys = warn.
void checkPluginKeys(const Poco::Util::AbstractConfiguration& cfg, plugins::LoadReport& report) {
  plugins::checkPluginNamespaces(plugins::collectPluginSettings(cfg), report);
  if (cfg.getString("config.unknown_keys", "error") != "warn") return;
  for (const auto& line : report.unknownPluginKeys) spdlog::warn("{} (ignored: config.unknown_keys = warn)", line);
  report.unknownPluginKeys.clear();
}

plugins::LoadReport checkPlugins(const Poco::Util::AbstractConfiguration& cfg) {
  plugins::LoadReport report;
  makePluginHost(cfg, report);
  checkPluginKeys(cfg, report);
  return report;
}

std::string pluginSettingsReference(const Poco::Util::AbstractConfiguration& cfg) {
  plugins::LoadReport report;
  auto host = makePluginHost(cfg, report);
  return plugins::pluginSettingsMarkdown(host->registry());
}

// Declaration order is construction order; destruction runs in reverse, so the HTTP
// server (last) stops before the services and the store it calls into.
struct Components {
  explicit Components(const Poco::Util::AbstractConfiguration& cfg)
      : pluginHost(makePluginHost(cfg, pluginReport)),
        dataDir(cfg.getString("data.dir")),
        secrets(cluster::resolveSharedSecrets(cfg, store::isPostgresUrl(cfg.getString("database.url")))),
        secret(secrets.jwtSecret),
        webhookSecrets(secrets.webhookSealingKey),
        database(std::make_unique<store::Database>(databaseOptionsFrom(cfg, cfg.getInt("database.pool_size")))),
        auditSigner(audit::CheckpointSigner::loadOrCreate(secrets.auditKeyPath)),
        auditLog(*database, &auditSigner),
        auditCheckpoints("audit checkpoints", std::chrono::seconds(cfg.getInt64("audit.checkpoint_interval_seconds")),
                         [this] {
                           if (auto n = auditLog.checkpointAll()) spdlog::info("audit: signed {} checkpoint(s)", n);
                         }),
        hasher(auth::PasswordHashOptions{static_cast<unsigned long long>(cfg.getInt64("auth.password_hash_opslimit")),
                                         static_cast<std::size_t>(cfg.getInt64("auth.password_hash_memlimit_kib")),
                                         cfg.getInt("auth.password_hash_concurrency"), 5000}),
        jwt(auth::JwtOptions{secret, cfg.getString("auth.jwt_issuer"), cfg.getString("auth.jwt_audience"),
                             cfg.getInt("auth.access_token_ttl_seconds")}),
        throttle(cfg.getInt("auth.login_max_failures"), cfg.getInt("auth.login_max_failures") * 4,
                 std::chrono::seconds(cfg.getInt("auth.login_failure_window_seconds"))),
        apiKeys(*database, auditLog, apiKeyCacheTtl(cfg)),
        sessions(*database, auditLog, jwt, hasher, throttle, cfg.getInt("auth.refresh_token_ttl_seconds")),
        authenticator(*database, jwt, apiKeys),
        ingestProblems(*database),
        plans(plansFrom(cfg)),
        users(*database, auditLog, hasher, plans, cfg.getString("auth.registration")),
        organizations(*database, auditLog, plans, cfg.getInt("invitations.ttl_seconds")),
        apps(*database, auditLog),
        environments(*database, auditLog),
        hub(stream::HubOptions{static_cast<std::size_t>(cfg.getInt64("stream.max_backlog_bytes")), 128 * 1024,
                               std::chrono::seconds(cfg.getInt("stream.keepalive_seconds")),
                               static_cast<std::size_t>(cfg.getInt64("stream.max_subscribers")),
                               static_cast<std::size_t>(cfg.getInt64("stream.max_subscribers_per_org"))}),
        writer(*database, &afterCommit, static_cast<std::size_t>(cfg.getInt64("events.max_commit_batch")),
               cfg.getBool("analytics.rollup_writes")),
        rollupWrites(cfg.getBool("analytics.rollup_writes")),
        quota(*database, plans),
        events(*database),
        retention(*database, plans, cfg.getInt64("retention.batch_size")),
        retentionTask("retention sweep", std::chrono::seconds(cfg.getInt64("retention.sweep_interval_seconds")),
                      [this] { retention.sweep(clock::nowMicros(), [this] { return !retentionTask.stopping(); }); }),
        streamTokens(secret, cfg.getInt("stream.token_ttl_seconds")),
        traces(*database),
        telemetry(pricesFrom(cfg),
                  static_cast<std::size_t>(std::max<std::int64_t>(1, cfg.getInt64("telemetry.max_message_chars")))),
        analytics(*database, dimensionNames(*pluginHost), cfg.getBool("analytics.rollup_reads")),
        rollupBackfill(*database),
        // Every second until done; each tick runs chunks until stopped or finished.
        rollupBackfillTask("rollup backfill", std::chrono::seconds(1),
                           [this] { rollupBackfill.run([this] { return !rollupBackfillTask.stopping(); }); }),
        traceFacetBackfill(*database),
        traceFacetBackfillTask(
            "trace facet backfill", std::chrono::seconds(1),
            [this] { traceFacetBackfill.run([this] { return !traceFacetBackfillTask.stopping(); }); }),
        // One node per SQLite store: this node's own invalidations are complete. On
        // PostgreSQL other nodes change rules too, noticed within two seconds.
        moderationCache(*database, &pluginHost->registry(),
                        std::chrono::milliseconds(database->dialect() == store::Dialect::SQLite ? 0 : 2000),
                        &webhookSecrets),
        moderationRules(*database, auditLog, &pluginHost->registry(), moderationCache, &webhookSecrets),
        violations(*database),
        moderator(moderationCache, violations, telemetry),
        alertRules(*database, auditLog, &pluginHost->registry(), cfg.getBool("outbound.allow_private_addresses", false),
                   &webhookSecrets),
        alertEvaluator(*database, publicUrlFrom(cfg)),
        alertTask("alert evaluation", std::chrono::seconds(cfg.getInt64("alerts.evaluate_interval_seconds")),
                  [this] { alertEvaluator.evaluate(clock::nowMicros()); }),
        spendCache(*database, std::chrono::milliseconds(cfg.getInt64("spend.policy_recheck_ms"))),
        spendAccountant(*database, spendCache),
        spendPolicies(*database, auditLog, &pluginHost->registry(), spendCache, spendAccountant),
        publisher(*database, writer, quota, telemetry, &moderator, &spendAccountant),
        outbound(outboundFrom(cfg)),
        // As the moderation cache: complete locally on SQLite, other nodes' endpoint
        // changes noticed within two seconds on PostgreSQL.
        webhookOutbox(std::chrono::milliseconds(database->dialect() == store::Dialect::SQLite ? 0 : 2000)),
        delivery(*database, deliveryFrom(cfg)),
        webhookSender(*database, outbound, webhookOutbox, webhookSecrets,
                      std::chrono::seconds(cfg.getInt64("webhooks.auto_disable_after_seconds"))),
        webhooks(*database, auditLog, outbound, webhookOutbox, delivery, webhookSecrets,
                 cfg.getString("webhooks.internal_key")),
        exporterPool(&pluginHost->registry(), webhookSecrets, outbound.policy().allowPrivateAddresses,
                     outbound.policy().timeout),
        exportOutbox(std::chrono::milliseconds(database->dialect() == store::Dialect::SQLite ? 0 : 2000)),
        exportSender(*database, exporterPool, std::max<std::int64_t>(1, cfg.getInt64("exports.max_batch"))),
        exportDestinations(*database, auditLog, outbound, exporterPool, exportOutbox),
        sinkSender(
            &pluginHost->registry(), outbound.policy().allowPrivateAddresses, outbound.policy().timeout,
            [this](const store::OutboxMessage& message, const notifications::SinkMessage& m) {
              markNotified(message, m);
            },
            &webhookSecrets),
        router(std::make_shared<http::Router>()) {
    ctx.database = database.get();
    ctx.authenticator = &authenticator;
    ctx.sessions = &sessions;
    ctx.apiKeys = &apiKeys;
    ctx.ingestProblems = &ingestProblems;
    ctx.users = &users;
    ctx.organizations = &organizations;
    ctx.metricsAccess = cfg.getString("metrics.access");
    ctx.plans = &plans;
    ctx.apps = &apps;
    ctx.environments = &environments;
    ctx.events = &events;
    ctx.publisher = &publisher;
    ctx.hub = &hub;
    ctx.streamTokens = &streamTokens;
    ctx.traces = &traces;
    ctx.analytics = &analytics;
    ctx.moderator = &moderator;
    ctx.moderationRules = &moderationRules;
    ctx.violations = &violations;
    ctx.audit = &auditLog;
    ctx.alerts = &alertRules;
    ctx.spendPolicies = &spendPolicies;
    ctx.spend = &spendAccountant;
    ctx.webhooks = &webhooks;
    ctx.exportDestinations = &exportDestinations;
    ctx.maxBodyBytes = static_cast<std::size_t>(cfg.getInt64("http.max_body_bytes"));
    ctx.plugins = pluginHost.get();
    if (database->dialect() == store::Dialect::PostgreSQL) {
      // Several nodes may share this store: other nodes' events reach this node's
      // streams, and this node's reach theirs.
      fanOut = std::make_unique<cluster::CrossNodeFanOut>(*database, hub, fanOutFrom(cfg));
      hub.setChannelWatcher(&fanOut->channelWatcher());
    }
    // What follows every group commit (events/after_commit.h), in this order. On
    // PostgreSQL the hub gets each commit through the cross-node fan-out's contiguity
    // gate, which also rings the other nodes' doorbell.
    if (fanOut)
      afterCommit.add(*fanOut);
    else
      afterCommit.add(hub);
    afterCommit.add(webhookOutbox);
    afterCommit.add(exportOutbox);
    webhookOutbox.onEnqueued([this] { delivery.wake(); });
    exportOutbox.onEnqueued([this] { delivery.wake(); });
    delivery.addSender("webhook", &webhookSender);
    delivery.addSender("export", &exportSender);
    delivery.addSender(notifications::kAlertTarget, &sinkSender);
    delivery.addSender(notifications::kSpendTarget, &sinkSender);
    alertEvaluator.onStateChanges([this] { delivery.wake(); });
    apps.onChannelsDeleted([this](const std::vector<std::int64_t>& ids) {
      hub.closeChannels(ids);
      publisher.forgetChannels(ids);
    });
    auto endStreams = [this](const Revocation& r) { hub.closeOwnedBy(r); };
    apiKeys.onRevoked(endStreams);
    organizations.onRevoked([this](const Revocation& r) {
      apiKeys.forget(r);  // a deleted organization's keys are gone
      hub.closeOwnedBy(r);
    });
    users.onRevoked(endStreams);
    if (database->dialect() == store::Dialect::PostgreSQL) {
      apiKeys.cacheTrusted(false);  // until the feed is listening
      changes = std::make_unique<store::ChangeListener>(
          database->connectionString(), [this](const store::ChangeNotice& n) { applyRemoteChange(n); },
          [this](bool connected) {
            apiKeys.cacheTrusted(connected);
            fanOut->listening(connected);
          });
      changes->setApplicationName("aev-listen-" + fanOut->options().node);
      if (fanOut->options().wakeup == cluster::Wakeup::Notify)
        changes->alsoListen(cluster::kDoorbellChannel,
                            [this](const std::string& payload) { fanOut->doorbell(payload); });
    }

    http::registerOpsRoutes(*router, ctx);
    http::registerAuthRoutes(*router, ctx);
    http::registerUserRoutes(*router, ctx);
    http::registerOrganizationRoutes(*router, ctx);
    http::registerApiKeyRoutes(*router, ctx);
    http::registerAdminRoutes(*router, ctx);
    http::registerAppRoutes(*router, ctx);
    http::registerEnvironmentRoutes(*router, ctx);
    http::registerEventRoutes(*router, ctx);
    http::registerTraceRoutes(*router, ctx);
    http::registerSessionRoutes(*router, ctx);
    http::registerAnalyticsRoutes(*router, ctx);
    http::registerModerationRuleRoutes(*router, ctx);
    http::registerModerationReportRoutes(*router, ctx);
    http::registerOtlpRoutes(*router, ctx);
    http::registerAuditRoutes(*router, ctx);
    http::registerAlertRoutes(*router, ctx);
    http::registerSpendPolicyRoutes(*router, ctx);
    http::registerWebhookRoutes(*router, ctx);
    http::registerExportDestinationRoutes(*router, ctx);
    http::registerMcpRoutes(*router, ctx, mcpFrom(cfg));
    http::registerSchemaRoutes(*router, ctx);  // last: it documents every route above
    if (cfg.getBool("console.enabled")) {
      consoleSite = std::make_unique<console::Site>(cfg.getString("console.dir"));
      http::registerConsoleRoutes(*router, *consoleSite);
    }

    http::ServerOptions options;
    options.host = cfg.getString("http.host");
    options.port = cfg.getInt("http.port");
    options.maxThreads = cfg.getInt("http.max_threads");
    options.maxConnections = cfg.getInt("http.max_connections");
    options.keepAliveTimeoutSeconds = cfg.getInt("http.keepalive_timeout_seconds");
    options.requestTimeoutSeconds = cfg.getInt("http.request_timeout_seconds");
    options.maxBodyBytes = static_cast<std::size_t>(cfg.getInt64("http.max_body_bytes"));
    options.publicUrl = publicUrlFrom(cfg);
    options.corsOrigins = splitList(cfg.getString("http.cors_origins"));
    server = std::make_unique<http::Server>(options, router);
  }

  // A notification an alert sink accepted: its record shows when.
  void markNotified(const store::OutboxMessage& message, const notifications::SinkMessage& m) {
    auto c = database->acquire();
    const auto now = clock::nowMicros();
    if (message.targetKind == notifications::kAlertTarget)
      store::AlertRepository().markDelivered(*c, message.orgId, m.recordId, now);
    else if (message.targetKind == notifications::kSpendTarget)
      store::SpendLedgerRepository().markSent(*c, message.orgId, m.recordId, now);
  }

  // A change committed by any node (this one included: applying it twice is harmless).
  void applyRemoteChange(const store::ChangeNotice& n) {
    if (n.topic == "apikey.revoked") {
      const Revocation r{n.orgId, std::nullopt, n.id};
      apiKeys.forget(r);
      hub.closeOwnedBy(r);
    } else if (n.topic == "organization.deleted") {
      const Revocation r{n.orgId, std::nullopt, std::nullopt};
      apiKeys.forget(r);
      hub.closeOwnedBy(r);
      moderationCache.invalidate(n.orgId);
      spendCache.invalidate(n.orgId);
    } else if (n.topic == "moderation.changed") {
      moderationCache.invalidate(n.orgId);
    } else if (n.topic == "spend.changed") {
      spendCache.invalidate(n.orgId);
    }
  }

  // First member: plugin instances held by services must not outlive their library.
  plugins::LoadReport pluginReport;
  std::unique_ptr<plugins::Host> pluginHost;
  std::string dataDir;
  cluster::SharedSecrets secrets;
  std::string secret;
  // Seals webhook signing secrets and the secret keys of plugin configurations.
  webhooks::SecretBox webhookSecrets;
  std::unique_ptr<store::Database> database;
  audit::CheckpointSigner auditSigner;
  audit::AuditLog auditLog;
  PeriodicTask auditCheckpoints;
  auth::PasswordHasher hasher;
  auth::JwtCodec jwt;
  auth::LoginThrottle throttle;
  auth::ApiKeyService apiKeys;
  auth::SessionService sessions;
  auth::Authenticator authenticator;
  ingest::ProblemLog ingestProblems;
  identity::PlanCatalog plans;
  identity::UserService users;
  identity::OrganizationService organizations;
  apps::AppService apps;
  identity::EnvironmentService environments;
  stream::Hub hub;
  events::AfterCommit afterCommit;  // before the writer, which calls it
  events::EventWriter writer;
  bool rollupWrites;  // analytics.rollup_writes
  events::QuotaGuard quota;
  events::EventService events;
  events::RetentionSweeper retention;
  PeriodicTask retentionTask;
  auth::StreamTokens streamTokens;
  traces::TraceService traces;
  telemetry::Extractor telemetry;
  analytics::AnalyticsService analytics;
  analytics::RollupBackfill rollupBackfill;
  PeriodicTask rollupBackfillTask;
  traces::TraceFacetBackfill traceFacetBackfill;
  PeriodicTask traceFacetBackfillTask;
  moderation::RuleCache moderationCache;  // holds plugin detector instances: after pluginHost
  moderation::RuleService moderationRules;
  moderation::ViolationService violations;
  moderation::Moderator moderator;
  alerts::AlertService alertRules;
  alerts::AlertEvaluator alertEvaluator;
  PeriodicTask alertTask;
  spend::PolicyCache spendCache;
  spend::Accountant spendAccountant;
  spend::PolicyService spendPolicies;
  events::Publisher publisher;  // the publish path: telemetry, moderation, spend, the writer
  delivery::OutboundHttp outbound;
  webhooks::EventOutbox webhookOutbox;
  delivery::Engine delivery;  // its workers start in Runtime::start, after the migrations
  webhooks::WebhookSender webhookSender;
  webhooks::WebhookService webhooks;
  exports::ExporterPool exporterPool;  // holds exporter plugin instances: after pluginHost
  exports::ExportOutbox exportOutbox;
  exports::ExportSender exportSender;
  exports::DestinationService exportDestinations;
  notifications::SinkSender sinkSender;  // alert and spend notifications through the alert sinks
  // PostgreSQL only: other nodes' events to this node's hub (stopped before the hub).
  std::unique_ptr<cluster::CrossNodeFanOut> fanOut;
  // PostgreSQL only; after everything its notices touch, so it is destroyed first.
  std::unique_ptr<store::ChangeListener> changes;
  http::AppContext ctx;
  std::unique_ptr<console::Site> consoleSite;  // the router's /console/ handler refers to it
  std::shared_ptr<http::Router> router;
  std::unique_ptr<http::Server> server;
};

Runtime::Runtime(const Poco::Util::AbstractConfiguration& config) {
  std::filesystem::create_directories(config.getString("data.dir"));
  c_ = std::make_unique<Components>(config);
  checkPluginKeys(config, c_->pluginReport);
  if (c_->pluginReport.hasConfigErrors())
    throw std::runtime_error("plugin configuration refused: " + c_->pluginReport.configErrors());
  spdlog::info("plugins: {}", c_->pluginReport.summary());
  const int applied = store::migrate(*c_->database);
  spdlog::info("store {} at schema version {} ({} migrations applied now)", c_->database->describe(),
               store::currentSchemaVersion(*c_->database), applied);
  if (auto what = c_->database->transaction(
          [&](store::Connection& c) { return store::RollupWriter::applyWritesSetting(c, c_->rollupWrites); });
      !what.empty())
    spdlog::warn("{}", what);
  // A backup copied into place, or a database restored by hand, is refused until restore
  // has moved its ids past the original's (store/store_identity.h).
  store::checkStoreServable(*c_->database, restoreInPlaceHint(config));
  // Spend counters are durable, but recounting the current windows from the stored events
  // at start-up also repairs what a crash or a policy change racing a publish left.
  const auto rebuilt = c_->spendAccountant.rebuildAll();
  if (rebuilt) spdlog::info("spend: current-window spend of {} policies recounted from the events", rebuilt);
}

Runtime::~Runtime() { stop(); }

void Runtime::start() {
  c_->hub.start();
  if (c_->fanOut) c_->fanOut->start();
  if (c_->changes) c_->changes->start();
  c_->auditCheckpoints.start();
  c_->retentionTask.start();
  if (c_->rollupWrites) c_->rollupBackfillTask.start();
  c_->traceFacetBackfillTask.start();
  c_->alertTask.start();
  c_->delivery.start();
  c_->server->start();
}

// Reverse of the path of an event: no new requests, then no streams, then the writer
// drains what was acknowledged-pending, then the delivery workers finish their attempts
// in flight (what is still queued stays in the outbox for the next start), then the
// store closes.
void Runtime::stop() {
  if (!c_) return;
  c_->server->stop();
  c_->hub.stop();
  c_->auditCheckpoints.stop();
  c_->retentionTask.stop();
  c_->rollupBackfillTask.stop();
  c_->traceFacetBackfillTask.stop();
  c_->alertTask.stop();
  if (c_->changes) c_->changes->stop();
  if (c_->fanOut) c_->fanOut->stop();  // the writer's last commits only queue doorbells now
  c_->writer.stop();
  c_->delivery.stop();  // after the writer: its last commits may have enqueued messages
  c_->database->close();
}

int Runtime::port() const { return c_->server->port(); }

std::string Runtime::storeDescription() const { return c_->database->describe(); }

bool Runtime::hasNoAccounts() const {
  auto conn = c_->database->acquire();
  return store::UserRepository().count(*conn) == 0;
}

}  // namespace aev::app
