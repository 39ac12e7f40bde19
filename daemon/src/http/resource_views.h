#pragma once
// JSON views of the read models that more than one front end shows: the REST routes and
// the MCP tools render traces, analytics, moderation reports, alert rules and spend
// policies with these, so both always answer with the same fields.
#include <Poco/JSON/Array.h>
#include <Poco/JSON/Object.h>

#include <optional>
#include <string>
#include <vector>

#include "analytics/analytics_service.h"
#include "moderation/violation_service.h"
#include "spend/policy_service.h"
#include "store/alert_repository.h"
#include "store/records.h"
#include "store/trace_repository.h"

namespace aev::http {

using JsonObject = Poco::JSON::Object::Ptr;

Poco::JSON::Array::Ptr stringArray(const std::vector<std::string>& values);
Poco::Dynamic::Var optionalText(const std::optional<std::string>& v);
Poco::Dynamic::Var optionalId(const std::optional<std::int64_t>& v);

// Channels (GET /channels/{id} and the lists).
JsonObject channelJson(const std::string& baseUrl, const store::ChannelRecord& ch, bool withSchemaField);

// GET /traces items.
JsonObject traceItem(const store::TraceRecord& t);
// GET /traces/{traceId}/summary.
JsonObject traceSummaryJson(const store::TraceRecord& t);

// GET /analytics/* bodies.
JsonObject breakdownRow(const store::BreakdownRow& r);
JsonObject breakdownJson(const analytics::Breakdown& b);
JsonObject dimensionsJson(const std::vector<store::AttributeKeyRow>& keys);
JsonObject timeseriesJson(const analytics::Series& series);
JsonObject latencyJson(const analytics::Latency& l);

// GET /moderation/violations items and GET /moderation/efficacy (its fields; the route
// adds `$schema`).
JsonObject violationJson(const store::ViolationRecord& v);
void setEfficacyFields(JsonObject obj, const moderation::ViolationService::Efficacy& report);

// /v2/alerts and /spend-policies items; `$schema` first when withSchemaField.
JsonObject alertJson(const std::string& baseUrl, const store::AlertRuleRecord& r, bool withSchemaField);
JsonObject policyJson(const std::string& baseUrl, const spend::PolicyView& view, bool withSchemaField);

}  // namespace aev::http
