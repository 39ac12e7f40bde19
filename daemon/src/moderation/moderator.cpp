#include "moderation/moderator.h"

#include <Poco/JSON/Stringifier.h>
#include <spdlog/spdlog.h>

#include <sstream>

#include "telemetry/extractor.h"

namespace aev::moderation {

namespace {

std::string condensedDocument(const Poco::JSON::Object::Ptr& object) {
  std::ostringstream out;
  Poco::JSON::Stringifier::condense(object, out);
  return out.str();
}

}  // namespace

ApiError Moderator::blockedError(const RuleMatch& m, const std::string& location) {
  ApiError error(422, "moderation-blocked", "Blocked by Moderation",
                 "Blocked by moderation rule " + std::to_string(m.ruleId) + " (\"" + m.ruleName + "\"): its " +
                     m.detector + " detector matched the " + nameOf(m.target) + ".");
  // Where it matched, never what: the text must not travel back (or into a log).
  for (const auto& field : m.fields) {
    const bool inEvent = field.rfind("payload", 0) == 0 || field.rfind("metadata", 0) == 0;
    error.withFieldError({location + "." + (inEvent ? field : "payload"),
                          "matched moderation rule " + std::to_string(m.ruleId) + " (\"" + m.ruleName + "\")",
                          std::to_string(m.ruleId)});
  }
  if (error.fieldErrors().empty())
    error.withFieldError(
        {location + ".payload", "matched moderation rule " + std::to_string(m.ruleId), std::to_string(m.ruleId)});
  return error;
}

Screening Moderator::screen(store::NewEvent& e, const Poco::JSON::Object::Ptr& payload,
                            const Poco::JSON::Object::Ptr& metadata, const std::string& location) {
  return screen(
      e, [&payload] { return payload; }, [&metadata] { return metadata; }, location);
}

Screening Moderator::screen(store::NewEvent& e, const PayloadSource& payloadSource,
                            const MetadataSource& metadataSource, const std::string& location) {
  Screening s;
  s.orgId = e.orgId;
  s.channelId = e.channelId ? std::optional<std::int64_t>(e.channelId) : std::nullopt;
  s.eventType = e.eventType.value_or("");
  s.source = e.source;
  auto rules = cache_.rules(e.orgId);
  if (rules->empty()) return s;  // the common case: nothing else to do
  const auto payload = payloadSource();
  if (!payload) return s;
  EventDocument doc{s.eventType, e.source, payload, metadataSource()};
  s.verdict = moderation::evaluate(*rules, doc);
  if (s.verdict.matches.empty()) return s;
  if (const auto* blocking = s.verdict.blockingMatch()) {
    spdlog::debug("event blocked by moderation rule {} (organization {})", blocking->ruleId, e.orgId);
    record({&s});
    throw blockedError(*blocking, location);
  }
  annotate(s.verdict, doc);
  if (s.verdict.redacted) {
    e.payloadJson = condensedDocument(doc.payload);
    // The telemetry columns were read from the unmasked text (the tool's name, say):
    // read them again so no column keeps what was redacted.
    telemetry_.apply(e, doc.payload, doc.metadata, location);
  }
  if (doc.metadata && (s.verdict.redacted || s.verdict.flagged)) e.metadataJson = condensedDocument(doc.metadata);
  return s;
}

Verdict Moderator::evaluate(std::int64_t orgId, EventDocument& event) {
  auto rules = cache_.rules(orgId);
  auto verdict = moderation::evaluate(*rules, event);
  if (!verdict.blocked()) annotate(verdict, event);
  return verdict;
}

void Moderator::record(const std::vector<const Screening*>& screenings) noexcept {
  std::vector<const Screening*> matched;
  for (const auto* s : screenings)
    if (s && !s->verdict.matches.empty()) matched.push_back(s);
  if (matched.empty()) return;
  try {
    violations_.record(matched);
  } catch (const std::exception& e) {
    spdlog::error("moderation violations of {} event(s) not recorded: {}", matched.size(), e.what());
  }
}

}  // namespace aev::moderation
