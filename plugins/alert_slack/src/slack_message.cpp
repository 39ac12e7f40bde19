#include "slack_message.h"

namespace slack {

namespace {

using aev::json::Value;
using aev::json::quote;

std::string field(const Value& alert, const char* key) {
  const Value* v = alert.find(key);
  if (!v) return {};
  auto t = v->scalarText();
  return t ? *t : std::string();
}

const char* operatorSymbol(const std::string& op) {
  if (op == "gt") return ">";
  if (op == "gte") return "≥";
  if (op == "lt") return "<";
  if (op == "lte") return "≤";
  if (op == "eq") return "=";
  return "?";
}

std::string mrkdwnField(const std::string& title, const std::string& value) {
  return "{\"type\":\"mrkdwn\",\"text\":" + quote("*" + title + "*\n" + escape(value)) + "}";
}

}  // namespace

std::string escape(std::string_view text) {
  std::string out;
  for (char c : text) {
    if (c == '&') out += "&amp;";
    else if (c == '<') out += "&lt;";
    else if (c == '>') out += "&gt;";
    else out += c;
  }
  return out;
}

std::string alertMessage(const Value& alert, const MessageOptions& options) {
  bool resolved = field(alert, "state") == "resolved";
  std::string name = field(alert, "name").empty() ? "alert rule " + field(alert, "alertRuleId") : field(alert, "name");
  std::string metric = field(alert, "metric");
  std::string value = field(alert, "value");
  std::string condition = std::string(operatorSymbol(field(alert, "operator"))) + " " + field(alert, "threshold");
  std::string window = field(alert, "windowMins").empty() ? "" : " over " + field(alert, "windowMins") + " min";

  std::string icon = resolved ? "✅" : "🔴";
  std::string headline = icon + (resolved ? " Resolved: " : " Alert firing: ") + name;
  std::string text = icon + (resolved ? " [RESOLVED] " : " [FIRING] ") + escape(name) + ": " + escape(metric) + " " +
                     escape(value) + " (threshold " + escape(condition) + window + ")";

  std::string scope;
  for (const auto& [label, key] : {std::pair{"app", "appId"}, std::pair{"environment", "environmentId"},
                                   std::pair{"model", "model"}, std::pair{"service", "service"},
                                   std::pair{"release", "release"}}) {
    auto v = field(alert, key);
    if (v.empty()) continue;
    if (!scope.empty()) scope += " · ";
    scope += std::string(label) + " " + v;
  }

  std::string fields = mrkdwnField("Metric", metric) + "," + mrkdwnField("Value", value) + "," +
                       mrkdwnField("Condition", condition + window);
  if (!scope.empty()) fields += "," + mrkdwnField("Scope", scope);

  std::string when = field(alert, resolved ? "resolvedAt" : "firedAt");
  std::string context = "agent-events · rule " + field(alert, "alertRuleId") + (when.empty() ? "" : " · " + when);
  if (auto url = field(alert, "url"); !url.empty()) context += " · <" + escape(url) + "|open>";

  std::string out = "{\"text\":" + quote(text);
  if (!options.channel.empty()) out += ",\"channel\":" + quote(options.channel);
  if (!options.username.empty()) out += ",\"username\":" + quote(options.username);
  if (!options.iconEmoji.empty()) out += ",\"icon_emoji\":" + quote(options.iconEmoji);
  out += ",\"blocks\":[";
  out += "{\"type\":\"header\",\"text\":{\"type\":\"plain_text\",\"text\":" + quote(headline) + ",\"emoji\":true}},";
  out += "{\"type\":\"section\",\"fields\":[" + fields + "]},";
  out += "{\"type\":\"context\",\"elements\":[{\"type\":\"mrkdwn\",\"text\":" + quote(context) + "}]}";
  out += "]}";
  return out;
}

}  // namespace slack
