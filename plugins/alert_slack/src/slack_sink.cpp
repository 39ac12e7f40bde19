// alert_slack: alert notifications to a Slack incoming webhook (alert rule
// destinationType "slack"). Slack answers 200 "ok"; 4xx answers (invalid_payload,
// channel_not_found, no_service, ...) are permanent, 429 and 5xx are retried.
#include <agentevents/http_post.hpp>
#include <agentevents/json.hpp>
#include <agentevents/plugin.hpp>

#include "slack_message.h"

namespace {

constexpr const char* kSchema = R"({
  "type": "object",
  "required": ["url"],
  "properties": {
    "url": {"type": "string", "format": "uri", "description": "https://hooks.slack.com/services/..."},
    "channel": {"type": "string"},
    "username": {"type": "string"},
    "iconEmoji": {"type": "string"},
    "timeoutMs": {"type": "integer", "minimum": 1, "maximum": 600000},
    "allowPrivateAddresses": {"type": "boolean"}
  }
})";

class SlackSink final : public aev::AlertSink {
 public:
  SlackSink(const aev::Host& host, std::string_view config) {
    auto cfg = aev::json::parse(config);
    destination_ = aev::http::parseDestination(cfg, host, cfg.find("url") ? "url" : "destination");
    options_.channel = cfg.stringOr("channel", "");
    options_.username = cfg.stringOr("username", "");
    options_.iconEmoji = cfg.stringOr("iconEmoji", "");
  }

  aev::Status deliver(std::string_view alertJson, const aev::Call& call) override {
    aev::json::Value alert;
    try {
      alert = aev::json::parse(alertJson);
    } catch (const aev::json::ParseError& e) {
      call.error(std::string("alert is not JSON: ") + e.what());
      return aev::Status::Permanent;
    }
    auto request = aev::http::requestTo(destination_, call, slack::alertMessage(alert, options_), "application/json");
    return aev::http::report(client_.post(request), call);
  }

 private:
  aev::http::Destination destination_;
  slack::MessageOptions options_;
  aev::http::Client client_;
};

void initCurl(const aev::Host&) { aev::http::curlGlobalInit(); }

}  // namespace

AEV_PLUGIN("alert_slack", "1.0.0", "agent-events", aev::onLoad(&initCurl),
           aev::alertSink<SlackSink>("slack", "Alert notifications to a Slack incoming webhook", 0, kSchema))
