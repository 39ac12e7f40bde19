#include "http/request_target.h"

#include <Poco/Exception.h>
#include <Poco/URI.h>

#include "common/errors.h"
#include "http/storable_text.h"

namespace aev::http {
namespace {

// The path as sent: Poco's getPath() is decoded, but the router splits segments first and
// decodes each segment once; a path decoded before that had "%25" decoded twice (a 500
// for a trace id holding '%') and "%2F" turned into a separator. Logs and problem
// `instance`s show it encoded too, so a "%0A" cannot forge a log line.
std::string rawPathOf(const std::string& target, const Poco::URI& parsed) {
  if (!target.empty() && target.front() == '/') return target.substr(0, target.find_first_of("?#"));
  std::string encoded;  // absolute-form target (RFC 9112 §3.2.2): re-encode the parsed path
  Poco::URI::encode(parsed.getPath(), "?#", encoded);
  return encoded;
}

}  // namespace

RequestTarget parseRequestTarget(const std::string& target) {
  RequestTarget out;
  Poco::URI uri;
  try {
    uri = Poco::URI(target);
    for (const auto& [k, v] : uri.getQueryParameters()) out.query.emplace(k, v);
  } catch (const Poco::SyntaxException&) {
    throw errors::badRequest("The request target is not a valid URI (a '%' must start a %XX escape).");
  }
  out.path = rawPathOf(target, uri);
  for (const auto& [k, v] : out.query) {
    if (!isStorableText(k)) throw unstorableText(k, "A query parameter name");
    if (!isStorableText(v)) throw unstorableText(v, "The query parameter " + k);
  }
  return out;
}

}  // namespace aev::http
