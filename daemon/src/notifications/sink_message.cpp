#include "notifications/sink_message.h"

#include <Poco/JSON/Object.h>
#include <Poco/JSON/Parser.h>

#include <sstream>

#include "common/json_text.h"
#include "store/outbox_repository.h"

namespace aev::notifications {

std::string encode(const SinkMessage& m) {
  Poco::JSON::Object obj;
  obj.set("sink", m.sink);
  obj.set("destination", m.destination);
  if (m.config != "{}") obj.set("config", m.config);
  obj.set("alert", m.alertJson);
  obj.set("recordId", m.recordId);
  std::ostringstream out;
  obj.stringify(out);
  return out.str();
}

std::optional<SinkMessage> decode(const std::string& payload) {
  try {
    auto obj = Poco::JSON::Parser().parse(payload).extract<Poco::JSON::Object::Ptr>();
    SinkMessage m;
    m.sink = obj->getValue<std::string>("sink");
    m.destination = obj->getValue<std::string>("destination");
    m.config = obj->optValue<std::string>("config", "{}");
    m.alertJson = obj->getValue<std::string>("alert");
    m.recordId = obj->getValue<std::int64_t>("recordId");
    return m;
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

std::string sinkConfig(const std::string& destination, bool allowPrivateAddresses, const std::string& openedConfig) {
  Poco::JSON::Object::Ptr obj;
  try {
    obj = Poco::JSON::Parser().parse(openedConfig.empty() ? "{}" : openedConfig).extract<Poco::JSON::Object::Ptr>();
  } catch (const std::exception&) {
    obj = new Poco::JSON::Object;
  }
  if (!destination.empty()) obj->set("destination", destination);  // none for a sink that needs no address
  obj->set("allowPrivateAddresses", allowPrivateAddresses);
  std::ostringstream out;
  obj->stringify(out);
  return out.str();
}

void enqueue(store::Connection& c, std::int64_t orgId, const char* targetKind, std::int64_t targetId,
             const SinkMessage& m, std::int64_t now) {
  // The message id stays the same across retries, so receivers can deduplicate.
  store::OutboxRepository().enqueue(c, orgId, targetKind, targetId, std::nullopt,
                                    std::string(targetKind) + "_" + std::to_string(m.recordId), encode(m), now);
}

}  // namespace aev::notifications
