#pragma once
// What route handlers may reach: the services (never the store directly, except the
// readiness probe) and the settings handlers need. Built once by app and shared.
#include <cstddef>
#include <string>

namespace aev::store {
class Database;
}
namespace aev::auth {
class Authenticator;
class SessionService;
class ApiKeyService;
}  // namespace aev::auth
namespace aev::ingest {
class ProblemLog;
}  // namespace aev::ingest
namespace aev::identity {
class UserService;
class OrganizationService;
class PlanCatalog;
class EnvironmentService;
}  // namespace aev::identity

namespace aev::apps {
class AppService;
}
namespace aev::events {
class EventService;
class Publisher;
}
namespace aev::stream {
class Hub;
}
namespace aev::traces {
class TraceService;
}
namespace aev::plugins {
class Host;
}
namespace aev::analytics {
class AnalyticsService;
}
namespace aev::auth {
class StreamTokens;
}
namespace aev::moderation {
class Moderator;
class RuleService;
class ViolationService;
}  // namespace aev::moderation
namespace aev::spend {
class Accountant;
class PolicyService;
}  // namespace aev::spend

namespace aev::audit {
class AuditLog;
}
namespace aev::alerts {
class AlertService;
}

namespace aev::webhooks {
class WebhookService;
}
namespace aev::exports {
class DestinationService;
}

namespace aev::mcp {
struct Options;
}
namespace aev::console {
class Site;
}

namespace aev::http {

class Router;

struct AppContext {
  store::Database* database = nullptr;  // readiness only
  auth::Authenticator* authenticator = nullptr;
  auth::SessionService* sessions = nullptr;
  auth::ApiKeyService* apiKeys = nullptr;
  ingest::ProblemLog* ingestProblems = nullptr;  // refused OTLP exports: metrics, log, GET /ingest/problems
  identity::UserService* users = nullptr;
  identity::OrganizationService* organizations = nullptr;
  const identity::PlanCatalog* plans = nullptr;
  identity::EnvironmentService* environments = nullptr;
  apps::AppService* apps = nullptr;
  events::EventService* events = nullptr;
  events::Publisher* publisher = nullptr;  // every publish path: the handlers parse, it does the rest
  stream::Hub* hub = nullptr;
  auth::StreamTokens* streamTokens = nullptr;
  traces::TraceService* traces = nullptr;
  const plugins::Host* plugins = nullptr;
  analytics::AnalyticsService* analytics = nullptr;
  moderation::Moderator* moderator = nullptr;  // POST /moderation/evaluate (publishing screens through publisher)
  moderation::RuleService* moderationRules = nullptr;
  moderation::ViolationService* violations = nullptr;
  audit::AuditLog* audit = nullptr;
  alerts::AlertService* alerts = nullptr;
  spend::PolicyService* spendPolicies = nullptr;
  spend::Accountant* spend = nullptr;  // POST /spend-policies/check (publishing calls it through publisher)
  webhooks::WebhookService* webhooks = nullptr;
  exports::DestinationService* exportDestinations = nullptr;
  std::string metricsAccess = "loopback";  // loopback | public | admin
  std::size_t maxBodyBytes = 1 << 20;       // http.max_body_bytes (OTLP: also after gunzip)
};

// One function per resource file under http/routes/.
void registerOpsRoutes(Router& router, AppContext& ctx);
void registerAuthRoutes(Router& router, AppContext& ctx);
void registerUserRoutes(Router& router, AppContext& ctx);
void registerOrganizationRoutes(Router& router, AppContext& ctx);
void registerApiKeyRoutes(Router& router, AppContext& ctx);
void registerAdminRoutes(Router& router, AppContext& ctx);
void registerAppRoutes(Router& router, AppContext& ctx);
void registerEnvironmentRoutes(Router& router, AppContext& ctx);
void registerEventRoutes(Router& router, AppContext& ctx);
void registerTraceRoutes(Router& router, AppContext& ctx);
void registerSessionRoutes(Router& router, AppContext& ctx);  // /sessions, /end-users
void registerAnalyticsRoutes(Router& router, AppContext& ctx);
void registerModerationRuleRoutes(Router& router, AppContext& ctx);    // /moderation/rules
void registerModerationReportRoutes(Router& router, AppContext& ctx);  // violations, efficacy, evaluate
void registerOtlpRoutes(Router& router, AppContext& ctx);  // /v1/traces
void registerAuditRoutes(Router& router, AppContext& ctx);  // /audit-logs, /audit-logs/verify
void registerAlertRoutes(Router& router, AppContext& ctx);  // /v2/alerts
void registerSpendPolicyRoutes(Router& router, AppContext& ctx);  // /spend-policies
void registerWebhookRoutes(Router& router, AppContext& ctx);  // /webhooks/*
void registerExportDestinationRoutes(Router& router, AppContext& ctx);  // /export-destinations
void registerMcpRoutes(Router& router, AppContext& ctx, const mcp::Options& options);  // POST /mcp
void registerSchemaRoutes(Router& router, AppContext& ctx);  // /openapi.json, /schemas/*
void registerConsoleRoutes(Router& router, const console::Site& site);  // /console/ (web files, not the API)

}  // namespace aev::http
