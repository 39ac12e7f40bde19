// alert_webhook: POSTs alert notifications as JSON to an HTTP endpoint (alert rule
// destinationType "webhook"), optionally signed as Standard Webhooks.
//
// Body: {"type": "alert.firing" | "alert.resolved", "timestamp": "<now, RFC 3339>",
//        "data": <the alert, as the daemon describes it (docs/plugins.md, "Alert JSON")>}
// With "secret" ("whsec_" + base64 key) in the configuration the request carries
// webhook-id (stable across retries of the same notification), webhook-timestamp and
// webhook-signature: v1,<base64 HMAC-SHA256(key, "<id>.<timestamp>.<body>")>.
#include <agentevents/http_post.hpp>
#include <agentevents/json.hpp>
#include <agentevents/plugin.hpp>

#include <chrono>
#include <ctime>
#include <string>

#include "signing.h"

namespace {

constexpr const char* kSchema = R"({
  "type": "object",
  "required": ["url"],
  "properties": {
    "url": {"type": "string", "format": "uri"},
    "secret": {"type": "string", "pattern": "^whsec_", "writeOnly": true},
    "headers": {"type": "object", "additionalProperties": {"type": "string"}},
    "timeoutMs": {"type": "integer", "minimum": 1, "maximum": 600000},
    "allowPrivateAddresses": {"type": "boolean"}
  }
})";

std::string rfc3339(std::chrono::system_clock::time_point t) {
  std::time_t secs = std::chrono::system_clock::to_time_t(t);
  std::tm tm{};
  gmtime_r(&secs, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

class WebhookSink final : public aev::AlertSink {
 public:
  WebhookSink(const aev::Host& host, std::string_view config) {
    auto cfg = aev::json::parse(config);
    destination_ = aev::http::parseDestination(cfg, host, cfg.find("url") ? "url" : "destination");
    if (const auto* s = cfg.find("secret"); s && !s->isNull()) {
      auto key = s->isString() ? webhook::decodeSecret(s->text()) : std::nullopt;
      if (!key) throw aev::ConfigError("secret must be \"whsec_\" followed by a base64 key (with its = padding)");
      if (key->size() < 16) throw aev::ConfigError("secret: the base64 key must decode to at least 16 bytes");
      key_ = *key;
    }
  }

  aev::Status deliver(std::string_view alertJson, const aev::Call& call) override {
    aev::json::Value alert;
    try {
      alert = aev::json::parse(alertJson);
    } catch (const aev::json::ParseError& e) {
      call.error(std::string("alert is not JSON: ") + e.what());
      return aev::Status::Permanent;
    }
    std::string state = alert.stringOr("state", "firing");
    auto now = std::chrono::system_clock::now();
    std::string body = "{\"type\":" + aev::json::quote("alert." + state) +
                       ",\"timestamp\":" + aev::json::quote(rfc3339(now)) + ",\"data\":" + alert.dump() + "}";

    auto request = aev::http::requestTo(destination_, call, body, "application/json");
    if (!key_.empty()) {
      std::string id = webhook::messageId(alertJson);
      auto ts = std::chrono::duration_cast<std::chrono::seconds>(now.time_since_epoch()).count();
      request.headers.emplace_back("webhook-id", id);
      request.headers.emplace_back("webhook-timestamp", std::to_string(ts));
      request.headers.emplace_back("webhook-signature", webhook::signature(key_, id, ts, body));
    }
    return aev::http::report(client_.post(request), call);
  }

 private:
  aev::http::Destination destination_;
  std::string key_;
  aev::http::Client client_;
};

void initLibraries(const aev::Host&) {
  aev::http::curlGlobalInit();
  webhook::initCrypto();
}

}  // namespace

AEV_PLUGIN("alert_webhook", "1.0.0", "agent-events", aev::onLoad(&initLibraries),
           aev::alertSink<WebhookSink>("webhook",
                                       "Alert notifications POSTed as JSON, optionally signed "
                                       "(Standard Webhooks)",
                                       0, kSchema))
