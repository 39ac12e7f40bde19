#include "plugins/settings.h"

#include <charconv>
#include <cmath>
#include <cstdlib>

namespace aev::plugins {

namespace {

void collect(const Poco::Util::AbstractConfiguration& config, const std::string& prefix,
             std::map<std::string, std::string>& out) {
  Poco::Util::AbstractConfiguration::Keys keys;
  config.keys(prefix, keys);
  for (const auto& k : keys) {
    std::string full = prefix + "." + k;
    if (config.hasOption(full)) out[full] = config.getRawString(full, "");
    collect(config, full, out);
  }
}

}  // namespace

std::map<std::string, std::string> collectPluginSettings(const Poco::Util::AbstractConfiguration& config) {
  std::map<std::string, std::string> out;
  collect(config, "plugins", out);
  return out;
}

}  // namespace aev::plugins

namespace aev::plugins {

namespace {

bool isInteger(std::string_view v) {
  std::int64_t n = 0;
  auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), n);
  return !v.empty() && ec == std::errc() && end == v.data() + v.size();
}

// The number and the unit's milliseconds of a duration, or {-1, 0}.
std::pair<std::int64_t, std::int64_t> splitDuration(std::string_view v) {
  std::size_t digits = 0;
  while (digits < v.size() && v[digits] >= '0' && v[digits] <= '9') ++digits;
  if (digits == 0 || digits > 15) return {-1, 0};
  const auto unit = v.substr(digits);
  std::int64_t scale = unit == "ms" ? 1 : unit == "s" ? 1000 : unit == "m" ? 60000 : unit == "h" ? 3600000 : 0;
  if (scale == 0) return {-1, 0};
  return {std::strtoll(std::string(v.substr(0, digits)).c_str(), nullptr, 10), scale};
}

}  // namespace

std::string_view settingTypeName(aev_setting_type type) {
  switch (type) {
    case AEV_SETTING_STRING:
      return "string";
    case AEV_SETTING_INTEGER:
      return "integer";
    case AEV_SETTING_NUMBER:
      return "number";
    case AEV_SETTING_BOOLEAN:
      return "boolean";
    case AEV_SETTING_DURATION:
      return "duration";
    case AEV_SETTING_LIST:
      return "list";
  }
  return "unknown";
}

std::string settingValueProblem(aev_setting_type type, std::string_view v) {
  switch (type) {
    case AEV_SETTING_STRING:
    case AEV_SETTING_LIST:
      return "";
    case AEV_SETTING_INTEGER:
      return isInteger(v) ? "" : "is not an integer";
    case AEV_SETTING_NUMBER: {
      const std::string text(v);
      char* end = nullptr;
      const double d = std::strtod(text.c_str(), &end);
      return !text.empty() && end == text.c_str() + text.size() && std::isfinite(d) ? "" : "is not a number";
    }
    case AEV_SETTING_BOOLEAN:
      return v == "true" || v == "false" || v == "1" || v == "0" || v == "yes" || v == "no" || v == "on" || v == "off"
                 ? ""
                 : "is not a boolean (true, false, yes, no, on, off, 1, 0)";
    case AEV_SETTING_DURATION:
      return splitDuration(v).first >= 0 ? "" : "is not a duration (an integer with ms, s, m or h, e.g. 30s)";
  }
  return "has an unknown type";
}

std::int64_t durationMillis(std::string_view value) {
  auto [n, scale] = splitDuration(value);
  return n < 0 ? 0 : n * scale;
}

}  // namespace aev::plugins
