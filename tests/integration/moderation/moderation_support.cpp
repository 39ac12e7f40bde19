#include "integration/moderation/moderation_support.h"

#include <Poco/JSON/Array.h>
#include <Poco/JSON/Stringifier.h>

#include <atomic>
#include <sstream>

#include "support/batch_results.h"

namespace aev::testing {

namespace {

std::string condensed(const Poco::Dynamic::Var& v) {
  std::ostringstream out;
  Poco::JSON::Stringifier::condense(v, out);
  return out.str();
}

std::string hex(std::uint64_t value, int digits) {
  std::string out(static_cast<std::size_t>(digits), '0');
  for (int i = digits - 1; i >= 0 && value; --i, value >>= 4)
    out[static_cast<std::size_t>(i)] = "0123456789abcdef"[value & 15];
  return out;
}

std::atomic<std::uint64_t> spanCounter{1};

}  // namespace

std::string nameOf(Path path) {
  switch (path) {
    case Path::Single: return "single";
    case Path::Batch: return "batch";
    case Path::Otlp: return "otlp";
  }
  return "";
}

std::string nameOf(Kind kind) {
  switch (kind) {
    case Kind::Request: return "request";
    case Kind::Response: return "response";
    case Kind::ToolCall: return "tool_call";
  }
  return "";
}

HttpResult ModerationTest::postRule(const Tenant& t, Poco::JSON::Object::Ptr body) {
  return t.http.post("/moderation/rules", body);
}

Poco::JSON::Object::Ptr ModerationTest::createRule(const Tenant& t, const std::string& name, const std::string& action,
                                                   const std::string& detector, const std::string& pattern,
                                                   const std::string& target) {
  auto body = obj({{"name", name}, {"action", action}, {"detector", detector}});
  if (!pattern.empty()) body->set("pattern", pattern);
  if (!target.empty()) body->set("target", target);
  auto r = postRule(t, body);
  if (r.status != 201) throw std::runtime_error("rule not created: " + r.describe());
  return r.object();
}

Poco::JSON::Object::Ptr ModerationTest::eventOf(Kind kind, std::int64_t channelId, const std::string& text) {
  switch (kind) {
    case Kind::Request:
      return eventBody(channelId, "user-message", obj({{"role", "user"}, {"content", text}}),
                       obj({{"eventType", "agent.message"}}));
    case Kind::Response:
      return eventBody(channelId, "agent-done", obj({{"result", text}}), obj({{"eventType", "agent.end"}}));
    case Kind::ToolCall:
      return eventBody(channelId, "tool", obj({{"tool", "shell"}, {"arguments", obj({{"cmd", text}})}}),
                       obj({{"eventType", "agent.tool_call.start"}}));
  }
  return nullptr;
}

std::string ModerationTest::otlpSpanOf(Kind kind, const std::string& text, const std::string& spanName) {
  auto attribute = [](const std::string& key, const std::string& value) {
    return obj({{"key", key}, {"value", obj({{"stringValue", value}})}});
  };
  Poco::JSON::Array::Ptr attributes = new Poco::JSON::Array;
  switch (kind) {
    case Kind::Request:
      attributes->add(attribute("gen_ai.operation.name", "chat"));
      attributes->add(attribute("gen_ai.prompt", text));
      break;
    case Kind::Response:
      attributes->add(attribute("gen_ai.operation.name", "invoke_agent"));
      attributes->add(attribute("gen_ai.completion", text));
      break;
    case Kind::ToolCall:
      attributes->add(attribute("gen_ai.operation.name", "execute_tool"));
      attributes->add(attribute("gen_ai.tool.name", "shell"));
      attributes->add(attribute("gen_ai.tool.call.arguments", condensed(obj({{"cmd", text}}))));
      break;
  }
  const auto n = spanCounter++;
  auto span = obj({{"traceId", hex(0xabc0000 + n, 32)},
                   {"spanId", hex(0x1000 + n, 16)},
                   {"name", spanName},
                   {"startTimeUnixNano", "1700000000000000000"},
                   {"endTimeUnixNano", "1700000000500000000"},
                   {"attributes", attributes}});
  auto request = obj({{"resourceSpans", arr({obj({{"scopeSpans", arr({obj({{"spans", arr({span})}})})}})})}});
  return condensed(request);
}

Published ModerationTest::publishOn(const Publisher& p, Path path, Kind kind, const std::string& text) {
  Published out;
  switch (path) {
    case Path::Single: {
      auto r = p.keyed.post("/event", eventOf(kind, p.channelId, text));
      out.status = r.status;
      out.body = r.body;
      if (r.status == 201)
        out.event = r.object();
      else
        out.problem = r.object();
      return out;
    }
    case Path::Batch: {
      // The event between two harmless ones: a refusal must not touch its neighbours.
      auto harmless = eventBody(p.channelId, "note", obj({{"n", 1}}));
      auto r =
          p.keyed.post("/events/batch", obj({{"events", arr({harmless, eventOf(kind, p.channelId, text), harmless})}}));
      if (r.status != 200) throw std::runtime_error("batch answer: " + r.describe());
      out.body = r.body;
      auto results = objects(r.object()->getArray("results"));
      if (results.size() != 3 || !isStoredEvent(results[0]) || !isStoredEvent(results[2]))
        throw std::runtime_error("a harmless batch neighbour failed: " + r.body);
      out.status = static_cast<int>(batchStatus(results[1]));
      if (out.status == 201)
        out.event = results[1];
      else
        out.problem = results[1];
      return out;
    }
    case Path::Otlp: {
      const std::string spanName = "span-" + unique();
      auto r = p.keyed.post("/v1/traces", otlpSpanOf(kind, text, spanName),
                            {{"Content-Type", "application/json"}, {"x-channel-id", std::to_string(p.channelId)}});
      if (r.status != 200) throw std::runtime_error("OTLP answer: " + r.describe());
      out.body = r.body;
      auto partial = r.object()->getObject("partialSuccess");
      if (partial && partial->has("rejectedSpans")) {
        out.status = 422;
        return out;
      }
      out.status = 201;
      for (const auto& e : listed(p))
        if (strField(e, "identifier") == spanName) out.event = e;
      if (!out.event) throw std::runtime_error("the accepted span is not listed: " + spanName);
      return out;
    }
  }
  return out;
}

std::string ModerationTest::textOf(Kind kind, const Poco::JSON::Object::Ptr& e) {
  auto payload = e->getObject("payload");
  auto metadata = e->getObject("metadata");
  auto str = [](const Poco::JSON::Object::Ptr& o, const std::string& k) {
    return o && o->has(k) && o->get(k).isString() ? o->getValue<std::string>(k) : std::string();
  };
  if (strField(e, "identifier").rfind("span-", 0) == 0) {  // OTLP: the content attributes
    switch (kind) {
      case Kind::Request: {
        // A chat span's prompt is normalised into payload.messages (docs/integrations.md#messages).
        auto messages = payload ? payload->getObject("messages") : nullptr;
        auto input = messages ? messages->getArray("input") : nullptr;
        if (input && input->size() > 0) return str(input->getObject(0), "content");
        return str(metadata, "gen_ai.prompt");
      }
      case Kind::Response: return str(metadata, "gen_ai.completion");
      case Kind::ToolCall: return str(metadata, "gen_ai.tool.call.arguments");
    }
  }
  switch (kind) {
    case Kind::Request: return str(payload, "content");
    case Kind::Response: return str(payload, "result");
    case Kind::ToolCall: return str(payload->getObject("arguments"), "cmd");
  }
  return "";
}

std::vector<Poco::JSON::Object::Ptr> ModerationTest::listed(const Publisher& p) {
  auto r = p.keyed.get("/event/" + std::to_string(p.channelId) + "/list?limit=100");
  if (r.status != 200) throw std::runtime_error("list failed: " + r.describe());
  return objects(listOf(r));
}

std::vector<Poco::JSON::Object::Ptr> ModerationTest::violations(const HttpClient& http, const std::string& query) {
  auto r = http.get("/moderation/violations?limit=100" + query);
  if (r.status != 200) throw std::runtime_error("violations failed: " + r.describe());
  return objects(listOf(r));
}

}  // namespace aev::testing
