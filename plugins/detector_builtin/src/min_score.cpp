#include <agentevents/json.hpp>

#include "detectors.h"

namespace builtin {

double readMinScore(std::string_view configJson, double fallback) {
  aev::json::Value cfg;
  try {
    cfg = aev::json::parse(configJson);
  } catch (const aev::json::ParseError& e) {
    throw aev::ConfigError(std::string("configuration is not JSON: ") + e.what());
  }
  if (!cfg.isObject()) throw aev::ConfigError("configuration must be a JSON object");
  const auto* v = cfg.find("minScore");
  if (!v) return fallback;
  if (!v->isNumber() || v->asDouble() < 0.0 || v->asDouble() > 1.0)
    throw aev::ConfigError("minScore must be a number between 0 and 1");
  return v->asDouble();
}

}  // namespace builtin
