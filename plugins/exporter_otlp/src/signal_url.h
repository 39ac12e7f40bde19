// OTLP/HTTP endpoints per signal (OTLP exporter specification): a base URL gets
// "/v1/traces" or "/v1/logs" appended; a URL that already ends in a signal path has it
// replaced by the path of the signal being sent.
#pragma once

#include <string>
#include <string_view>

namespace otlp {

inline std::string signalUrl(std::string_view base, std::string_view signalPath /* "/v1/traces" */) {
  std::string url(base);
  std::string query;
  if (auto q = url.find('?'); q != std::string::npos) {
    query = url.substr(q);
    url.resize(q);
  }
  for (std::string_view known : {"/v1/traces", "/v1/logs", "/v1/metrics"}) {
    if (url.size() >= known.size() && url.compare(url.size() - known.size(), known.size(), known) == 0) {
      url.resize(url.size() - known.size());
      break;
    }
  }
  while (!url.empty() && url.back() == '/') url.pop_back();
  return url + std::string(signalPath) + query;
}

}  // namespace otlp
