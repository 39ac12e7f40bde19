// dimension_standard: the 17 breakdown dimensions of extracted from a
// stored event (docs/api.md#the-stored-event) by the rules of docs/features.md#telemetry-fields: metadata keys
// are tried in order and the first present wins; OpenTelemetry names (gen_ai.*,
// service.name, error.type) are flat keys, others may be nested objects.
#include <agentevents/genai_values.hpp>
#include <agentevents/json.hpp>
#include <agentevents/plugin.hpp>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace {

using aev::json::Value;

// How one dimension finds its key.
struct Spec {
  enum class Where { Top, Metadata };
  struct Source {
    Where where;
    const char* key;
  };
  std::vector<Source> sources;  // first present wins
  // Extra rules that are not a plain lookup.
  bool statusRules = false;     // agent.error events are "error"; default "ok"
  bool toolRules = false;       // agent.tool_call.* events: payload.tool or payload.name
  bool operationRules = false;  // OTLP spans: the span name (identifier)
  bool tagRules = false;        // metadata.tags[<tagKey>] or metadata[<tagKey>]
  // A value vocabulary spelled one way (agentevents/genai_values.hpp), as the daemon does.
  enum class Normalise { None, Provider, FinishReason };
  Normalise normalise = Normalise::None;
};

// A scalar as key text; objects, arrays, null and empty strings give no key.
std::optional<std::string> keyText(const Value* v) {
  if (!v) return std::nullopt;
  if (v->isArray()) return v->items().empty() ? std::nullopt : keyText(&v->items().front());  // finish_reasons
  auto t = v->scalarText();
  if (!t || t->empty()) return std::nullopt;
  return t;
}

// A metadata key: the flat key first ("gen_ai.request.model"), then the dotted path.
const Value* metadataValue(const Value& metadata, std::string_view key) {
  if (const Value* v = metadata.find(key)) return v;
  if (key.find('.') != std::string_view::npos) return metadata.path(key);
  return nullptr;
}

class StandardDimension final : public aev::Dimension {
 public:
  StandardDimension(const aev::Host&, std::string_view, const void* spec) : spec_(*static_cast<const Spec*>(spec)) {}

  std::optional<std::string> key(const aev::KeyInput& in) const override {
    Value event;
    try {
      event = aev::json::parse(in.eventJson);
    } catch (const aev::json::ParseError&) {
      return std::nullopt;  // not JSON: no key (the host never sends that)
    }
    if (!event.isObject()) return std::nullopt;
    static const Value empty = Value::object();
    const Value* m = event.find("metadata");
    const Value& metadata = m && m->isObject() ? *m : empty;
    std::string eventType = event.stringOr("eventType", "");

    if (spec_.statusRules && eventType == "agent.error") return std::string("error");
    if (spec_.tagRules) {
      if (in.parameter.empty()) return std::nullopt;
      const Value* tags = metadata.find("tags");
      if (tags && tags->isObject())
        if (auto k = keyText(tags->find(in.parameter))) return k;
      return keyText(metadata.find(in.parameter));
    }
    for (const auto& s : spec_.sources) {
      const Value* v = s.where == Spec::Where::Top ? event.find(s.key) : metadataValue(metadata, s.key);
      if (auto k = keyText(v)) return normalised(*k);
    }
    if (spec_.toolRules && eventType.rfind("agent.tool_call.", 0) == 0) {
      const Value* payload = event.find("payload");
      if (payload && payload->isObject()) {
        if (auto k = keyText(payload->find("tool"))) return k;
        if (auto k = keyText(payload->find("name"))) return k;
      }
    }
    if (spec_.operationRules && event.stringOr("source", "") == "otlp") return keyText(event.find("identifier"));
    if (spec_.statusRules) return std::string("ok");
    return std::nullopt;
  }

 private:
  std::string normalised(const std::string& key) const {
    switch (spec_.normalise) {
      case Spec::Normalise::Provider:
        return aev::genai::providerId(key);
      case Spec::Normalise::FinishReason:
        return aev::genai::finishReason(key);
      case Spec::Normalise::None:
        break;
    }
    return key;
  }

  const Spec& spec_;
};

using W = Spec::Where;

// The key chains of the daemon's convention table (daemon/src/telemetry/conventions.cpp,
// docs/integrations.md), for the text dimensions: agent-events keys > langfuse.* > gen_ai.* >
// OpenInference > traceloop.* > ai.* > deprecated gen_ai.*.
const Spec kModel{{{W::Metadata, "model"},
                   {W::Metadata, "langfuse.observation.model.name"},
                   {W::Metadata, "gen_ai.request.model"},
                   {W::Metadata, "llm.request.model_name"},
                   {W::Metadata, "llm.model_name"},
                   {W::Metadata, "embedding.model_name"},
                   {W::Metadata, "ai.model.id"},
                   {W::Metadata, "gen_ai.response.model"},
                   {W::Metadata, "llm.response.model_name"},
                   {W::Metadata, "ai.response.model"}}};
// Provider ids and finish reasons are normalised (agentevents/genai_values.hpp) whichever key
// gave them, as the daemon does at ingest.
const Spec kProvider{.sources = {{W::Metadata, "provider"},
                                 {W::Metadata, "gen_ai.provider.name"},
                                 {W::Metadata, "llm.provider"},
                                 {W::Metadata, "llm.system"},
                                 {W::Metadata, "ai.model.provider"},
                                 {W::Metadata, "gen_ai.system"}},
                     .normalise = Spec::Normalise::Provider};
const Spec kStatus{{{W::Metadata, "status"}}, true};
const Spec kSource{{{W::Top, "source"}}};
const Spec kApp{{{W::Top, "appId"}}};
const Spec kChannel{{{W::Top, "channelId"}, {W::Top, "channel_id"}}};
const Spec kApiKey{{{W::Top, "apiKeyId"}}};
const Spec kUser{{{W::Metadata, "user"},
                  {W::Metadata, "langfuse.user.id"},
                  {W::Metadata, "enduser.id"},
                  {W::Metadata, "user.id"},
                  {W::Metadata, "traceloop.association.properties.user_id"},
                  {W::Metadata, "ai.telemetry.metadata.userId"}}};
const Spec kSession{{{W::Metadata, "session"},
                     {W::Metadata, "langfuse.session.id"},
                     {W::Metadata, "session.id"},
                     {W::Metadata, "gen_ai.conversation.id"},
                     {W::Metadata, "traceloop.association.properties.session_id"},
                     {W::Metadata, "ai.telemetry.metadata.sessionId"}}};
const Spec kTraceName{{{W::Metadata, "trace_name"},
                       {W::Metadata, "langfuse.trace.name"},
                       {W::Metadata, "gen_ai.workflow.name"},
                       {W::Metadata, "traceloop.workflow.name"},
                       {W::Metadata, "ai.telemetry.functionId"}}};
const Spec kAgent{{{W::Top, "agentId"}, {W::Metadata, "gen_ai.agent.name"}, {W::Metadata, "agent.name"}}};
const Spec kTool{{{W::Metadata, "tool"},
                  {W::Metadata, "gen_ai.tool.name"},
                  {W::Metadata, "tool.name"},
                  {W::Metadata, "ai.toolCall.name"}},
                 false,
                 true};
const Spec kEventType{{{W::Top, "eventType"}}};
const Spec kFinishReason{.sources = {{W::Metadata, "finish_reason"},
                                     {W::Metadata, "gen_ai.response.finish_reasons"},
                                     {W::Metadata, "llm.finish_reason"},
                                     {W::Metadata, "gen_ai.completion.0.finish_reason"},
                                     {W::Metadata, "ai.response.finishReason"}},
                         .normalise = Spec::Normalise::FinishReason};
const Spec kSemanticKind{{{W::Metadata, "semantic_kind"}}};
const Spec kService{{{W::Metadata, "service"}, {W::Metadata, "service.name"}}};
const Spec kOperation{{{W::Metadata, "operation"}, {W::Metadata, "gen_ai.operation.name"}}, false, false, true};
const Spec kErrorType{{{W::Metadata, "error_type"}, {W::Metadata, "error.type"}, {W::Metadata, "exception.type"}}};
const Spec kTag{{}, false, false, false, true};

template <const Spec& S>
aev::Component dim(const char* name, const char* description) {
  return aev::dimension<StandardDimension>(name, description, &S);
}

}  // namespace

AEV_PLUGIN("dimension_standard", "1.0.0", "agent-events", dim<kModel>("model", "metadata.model | gen_ai.request.model"),
           dim<kProvider>("provider", "metadata.provider | gen_ai.provider.name | llm.provider | llm.system | ..."),
           dim<kStatus>("status", "metadata.status; agent.error events are error; default ok"),
           dim<kSource>("source", "api, batch or otlp (set by the service)"), dim<kApp>("app", "the event's app id"),
           dim<kChannel>("channel", "the event's channel id"),
           dim<kApiKey>("apiKey", "id of the API key that published the event"),
           dim<kUser>("user", "end user: metadata.user | langfuse.user.id | enduser.id | user.id | ..."),
           dim<kSession>("session",
                         "session: metadata.session | langfuse.session.id | session.id | gen_ai.conversation.id | ..."),
           dim<kTraceName>("traceName",
                           "trace name: metadata.trace_name | langfuse.trace.name | gen_ai.workflow.name | ..."),
           dim<kAgent>("agent", "agentId | gen_ai.agent.name"),
           dim<kTool>("tool", "metadata.tool; for agent.tool_call.* payload.tool | payload.name"),
           dim<kEventType>("eventType", "the event type"),
           dim<kFinishReason>("finishReason", "metadata.finish_reason | gen_ai.response.finish_reasons"),
           dim<kSemanticKind>("semanticKind", "metadata.semantic_kind"),
           dim<kService>("service", "metadata.service | service.name"),
           dim<kOperation>("operation", "metadata.operation | gen_ai.operation.name; OTLP spans: span name"),
           dim<kErrorType>("errorType", "metadata.error_type | error.type"),
           dim<kTag>("tag", "a custom attribute: metadata.tags[<tagKey>] | metadata[<tagKey>]"))
