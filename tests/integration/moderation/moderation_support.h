#pragma once
// Helpers of the moderation suites: rules created through the API, and events of each
// moderation target published on each path (POST /event, POST /events/batch, OTLP/JSON
// POST /v1/traces), so one test can run every action on every target and path.
#include <cstdint>
#include <string>
#include <vector>

#include "integration/telemetry/traces_support.h"

namespace aev::testing {

enum class Path { Single, Batch, Otlp };
enum class Kind { Request, Response, ToolCall };  // the moderation targets
std::string nameOf(Path path);
std::string nameOf(Kind kind);

// The outcome of publishing one event: stored (201 and the event), or refused (the
// status and problem; for OTLP the count of rejected spans).
struct Published {
  int status = 0;
  Poco::JSON::Object::Ptr event;    // when stored (OTLP: read back from the list)
  Poco::JSON::Object::Ptr problem;  // POST /event, batch
  std::string body;                 // the whole answer
};

class ModerationTest : public TracesTest {
 protected:
  // POST /moderation/rules as the tenant; the 201 body (throws otherwise).
  static Poco::JSON::Object::Ptr createRule(const Tenant& t, const std::string& name, const std::string& action,
                                            const std::string& detector, const std::string& pattern = "",
                                            const std::string& target = "");
  static HttpResult postRule(const Tenant& t, Poco::JSON::Object::Ptr body);

  // An event of the target's kind carrying `text` where that target reads it.
  static Poco::JSON::Object::Ptr eventOf(Kind kind, std::int64_t channelId, const std::string& text);
  // An OTLP/JSON export with one span of the target's kind carrying `text`.
  static std::string otlpSpanOf(Kind kind, const std::string& text, const std::string& spanName);
  // Publishes one event of `kind` with `text` on `path`. For OTLP the span name is
  // unique and the stored event is found by it in the channel's list.
  static Published publishOn(const Publisher& p, Path path, Kind kind, const std::string& text);

  // Where the text sits in a stored event of `kind` ("" when it is not there).
  static std::string textOf(Kind kind, const Poco::JSON::Object::Ptr& event);
  // All events of the channel (newest first).
  static std::vector<Poco::JSON::Object::Ptr> listed(const Publisher& p);
  static std::vector<Poco::JSON::Object::Ptr> violations(const HttpClient& http, const std::string& query = "");
};

}  // namespace aev::testing
