// The Slack incoming-webhook message for one alert notification: a plain-text fallback
// ("text") and Block Kit blocks (header, fields, context).
#pragma once

#include <agentevents/json.hpp>

#include <string>

namespace slack {

struct MessageOptions {
  std::string channel;    // optional overrides honoured by legacy webhooks
  std::string username;
  std::string iconEmoji;
};

std::string alertMessage(const aev::json::Value& alert, const MessageOptions& options);

// Slack's mrkdwn control characters (&, <, >) escaped.
std::string escape(std::string_view text);

}  // namespace slack
