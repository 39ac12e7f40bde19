#include "traces/tool_call_links.h"

#include <Poco/JSON/Array.h>
#include <Poco/JSON/Object.h>

#include <algorithm>
#include <cctype>

#include "common/json_parse.h"

namespace aev::traces {

namespace {

using Poco::JSON::Object;

enum class RunKind { None, Start, End, Other };

Object::Ptr objectOf(std::string_view json) {
  try {
    auto v = parseJson(json);
    if (v.type() == typeid(Object::Ptr)) return v.extract<Object::Ptr>();
  } catch (const std::exception&) {  // stored text is valid JSON; anything else names no call
  }
  return nullptr;
}

std::optional<std::string> textMember(const Object::Ptr& o, const std::string& key) {
  if (!o || !o->has(key)) return std::nullopt;
  auto v = o->get(key);
  if (!v.isString()) return std::nullopt;
  auto s = v.extract<std::string>();
  if (s.empty()) return std::nullopt;
  return s;
}

bool isLlmCall(const store::StoredEvent& e) {
  return e.telemetry.semanticKind == "llm" || e.eventType == "agent.message";
}

bool isHandoff(const store::StoredEvent& e) {
  return e.telemetry.semanticKind == "handoff" || e.eventType == "agent.handoff";
}

RunKind runKind(const store::StoredEvent& e) {
  if (e.eventType == "agent.tool_call.start") return RunKind::Start;
  if (e.eventType == "agent.tool_call.end") return RunKind::End;
  if (e.telemetry.semanticKind == "tool" || isHandoff(e)) return RunKind::Other;
  return RunKind::None;
}

// The tool calls of an LLM call's normalised output (payload.messages.output[].toolCalls[]).
std::vector<RequestedToolCall> requestedCalls(const store::StoredEvent& e) {
  std::vector<RequestedToolCall> out;
  // Most LLM calls ask for no tool: no parse unless the payload names tool calls at all.
  if (e.payloadJson.find("\"toolCalls\"") == std::string::npos) return out;
  auto payload = objectOf(e.payloadJson);
  auto messages = payload ? payload->getObject("messages") : nullptr;
  auto output = messages ? messages->getArray("output") : nullptr;
  if (!output) return out;
  for (std::size_t i = 0; i < output->size(); ++i) {
    auto message = output->getObject(static_cast<unsigned>(i));
    auto calls = message ? message->getArray("toolCalls") : nullptr;
    if (!calls) continue;
    for (std::size_t j = 0; j < calls->size(); ++j) {
      auto call = calls->getObject(static_cast<unsigned>(j));
      auto name = textMember(call, "name");
      if (name) out.push_back({textMember(call, "id"), *name, std::nullopt});
    }
  }
  return out;
}

// The name a request for this run carries: its tool; for a hand-off to X, transfer_to_X as
// the Agents SDK names it (non-alphanumerics as '_'), in lower case as compared.
std::string lowered(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

std::optional<std::string> requestNameOf(const store::StoredEvent& e, const Object::Ptr& metadata) {
  if (isHandoff(e)) {
    auto target = textMember(metadata, "handoff_to");
    if (!target) return std::nullopt;
    std::string name = "transfer_to_" + *target;
    for (auto& c : name)
      if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
    return lowered(name);
  }
  if (e.telemetry.tool) return lowered(*e.telemetry.tool);
  return std::nullopt;
}

struct Run {
  std::size_t index;
  RunKind kind;
  std::optional<std::string> id;
  std::optional<std::string> name;  // lower case
};

class Matcher {
 public:
  explicit Matcher(ToolCallLinks& links) : links_(links) {}

  // Pass 1: the latest earlier request with the run's id (naming the run's tool preferred),
  // else the first later one.
  bool byId(const Run& run) {
    std::optional<std::pair<std::size_t, std::size_t>> best, bestNamed, later;
    for (std::size_t r = 0; r < links_.requested.size(); ++r) {
      const auto& calls = links_.requested[r];
      for (std::size_t c = 0; c < calls.size(); ++c) {
        if (calls[c].id != run.id) continue;
        if (r < run.index) {
          best = {r, c};
          if (run.name && lowered(calls[c].name) == *run.name) bestNamed = {r, c};
        } else if (!later) {
          later = {r, c};
        }
      }
    }
    auto chosen = bestNamed ? bestNamed : best ? best : later;
    if (!chosen) return false;
    link(run.index, chosen->first, chosen->second, true);
    return true;
  }

  // Pass 2: the earliest earlier unanswered request of the run's name.
  bool byName(const Run& run) {
    if (!run.name) return false;
    for (std::size_t r = 0; r < run.index && r < links_.requested.size(); ++r) {
      const auto& calls = links_.requested[r];
      for (std::size_t c = 0; c < calls.size(); ++c)
        if (!calls[c].answeredBy && lowered(calls[c].name) == *run.name) {
          link(run.index, r, c, false);
          return true;
        }
    }
    return false;
  }

  void link(std::size_t run, std::size_t requester, std::size_t call, bool byId) {
    links_.requestedBy[run] = ToolCallLink{requester, call, byId};
    auto& answered = links_.requested[requester][call].answeredBy;
    if (!answered || run < *answered) answered = run;
  }

 private:
  ToolCallLinks& links_;
};

}  // namespace

ToolCallLinks linkToolCalls(const std::vector<store::StoredEvent>& events) {
  ToolCallLinks links;
  links.callId.resize(events.size());
  links.requestedBy.resize(events.size());
  links.requested.resize(events.size());
  std::vector<Run> runs;
  bool anyRequest = false;
  for (std::size_t i = 0; i < events.size(); ++i) {
    const auto& e = events[i];
    if (isLlmCall(e)) {
      links.requested[i] = requestedCalls(e);
      anyRequest = anyRequest || !links.requested[i].empty();
    }
    const auto kind = runKind(e);
    if (kind == RunKind::None) continue;
    const auto metadata = e.metadataJson ? objectOf(*e.metadataJson) : nullptr;
    links.callId[i] = textMember(metadata, "tool_call_id");
    runs.push_back({i, kind, links.callId[i], requestNameOf(e, metadata)});
  }
  if (!anyRequest) return links;

  Matcher matcher(links);
  for (const auto& run : runs)
    if (run.id) matcher.byId(run);
  // Runs without a call id, in order; an end shares the request of its tool's open start.
  std::vector<const Run*> openStarts;
  for (const auto& run : runs) {
    if (run.id) continue;
    if (run.kind == RunKind::End && run.name) {
      auto start =
          std::find_if(openStarts.begin(), openStarts.end(), [&](const Run* s) { return s->name == run.name; });
      if (start != openStarts.end()) {
        links.requestedBy[run.index] = links.requestedBy[(*start)->index];
        openStarts.erase(start);
        continue;
      }
    }
    matcher.byName(run);
    if (run.kind == RunKind::Start) openStarts.push_back(&run);
  }
  return links;
}

}  // namespace aev::traces
