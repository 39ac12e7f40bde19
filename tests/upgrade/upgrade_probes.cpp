#include "upgrade/upgrade_probes.h"

#include <Poco/JSON/Array.h>

#include <cmath>
#include <set>

namespace aev::testing::upgrade {

namespace {

Poco::JSON::Array::Ptr idsToJson(const std::vector<std::int64_t>& ids) {
  Poco::JSON::Array::Ptr a = new Poco::JSON::Array;
  for (auto id : ids) a->add(id);
  return a;
}

std::vector<std::int64_t> idsFromJson(const Poco::JSON::Array::Ptr& a) {
  std::vector<std::int64_t> out;
  if (a)
    for (std::size_t i = 0; i < a->size(); ++i) out.push_back(a->get(i).convert<std::int64_t>());
  return out;
}

// Keys whose values come from the clock or the server's address, not from the stored data.
const std::set<std::string>& volatileKeys() {
  static const std::set<std::string> keys = {
      "$schema",       // http://127.0.0.1:<port>/schemas/...
      "access_token",  // issued per login
      "refresh_token",
      "usage",            // the organization's current calendar month
      "lastUsedAt",       // a key's last use: the probes themselves use it
      "lastEvaluatedAt",  // alert rules are evaluated on a timer
      "lastValue",
      "currentSpendUsd",  // the spend of the window that contains now
  };
  return keys;
}

}  // namespace

Poco::JSON::Object::Ptr SeedManifest::toJson() const {
  auto o = obj({{"login", login},
                {"password", password},
                {"apiKey", apiKey},
                {"orgId", orgId},
                {"appId", appId},
                {"windowSince", windowSince},
                {"windowUntil", windowUntil}});
  o->set("channelIds", idsToJson(channelIds));
  o->set("firstChannelEventIds", idsToJson(firstChannelEventIds));
  Poco::JSON::Array::Ptr traces = new Poco::JSON::Array;
  for (const auto& t : traceIds) traces->add(t);
  o->set("traceIds", traces);
  return o;
}

SeedManifest SeedManifest::fromJson(const Poco::JSON::Object::Ptr& json) {
  SeedManifest m;
  m.login = json->getValue<std::string>("login");
  m.password = json->getValue<std::string>("password");
  m.apiKey = json->getValue<std::string>("apiKey");
  m.orgId = json->getValue<std::int64_t>("orgId");
  m.appId = json->getValue<std::int64_t>("appId");
  m.windowSince = json->getValue<std::string>("windowSince");
  m.windowUntil = json->getValue<std::string>("windowUntil");
  m.channelIds = idsFromJson(json->getArray("channelIds"));
  m.firstChannelEventIds = idsFromJson(json->getArray("firstChannelEventIds"));
  auto traces = json->getArray("traceIds");
  for (std::size_t i = 0; traces && i < traces->size(); ++i) m.traceIds.push_back(traces->getElement<std::string>(i));
  return m;
}

std::vector<std::string> probePaths(const SeedManifest& seed) {
  const auto org = std::to_string(seed.orgId);
  const auto window = "since=" + seed.windowSince + "&until=" + seed.windowUntil;
  std::vector<std::string> paths = {
      "/users/me",
      "/organizations/" + org,
      "/organizations/" + org + "/members",
      "/apps",
      "/apps/" + std::to_string(seed.appId),
      "/api-keys",
      "/environments",
      "/moderation/rules",
      "/moderation/violations?limit=100",
      "/spend-policies",
      "/v2/alerts",
      "/traces?limit=100",
      "/analytics/overview?" + window + "&interval=hour",
      "/analytics/breakdown?" + window + "&dimension=model",
      "/analytics/breakdown?" + window + "&dimension=agent",
      "/analytics/breakdown?" + window + "&dimension=tool",
      "/analytics/timeseries?" + window + "&interval=hour",
      "/audit-logs?limit=100",
      "/audit-logs/verify",
  };
  for (auto ch : seed.channelIds) {
    paths.push_back("/channel/" + std::to_string(ch));
    paths.push_back("/event/" + std::to_string(ch) + "/list?limit=100");
  }
  for (const auto& t : seed.traceIds) {
    paths.push_back("/traces/" + t + "/summary");
    paths.push_back("/traces/" + t + "/events");
  }
  return paths;
}

Poco::Dynamic::Var withoutVolatileFields(const Poco::Dynamic::Var& value) {
  if (value.type() == typeid(Poco::JSON::Object::Ptr)) {
    auto in = value.extract<Poco::JSON::Object::Ptr>();
    Poco::JSON::Object::Ptr out = new Poco::JSON::Object;
    for (const auto& [k, v] : *in)
      if (!volatileKeys().count(k)) out->set(k, withoutVolatileFields(v));
    return out;
  }
  if (value.type() == typeid(Poco::JSON::Array::Ptr)) {
    auto in = value.extract<Poco::JSON::Array::Ptr>();
    Poco::JSON::Array::Ptr out = new Poco::JSON::Array;
    for (std::size_t i = 0; i < in->size(); ++i) out->add(withoutVolatileFields(in->get(i)));
    return out;
  }
  return value;
}

std::string firstDifference(const Poco::Dynamic::Var& recorded, const Poco::Dynamic::Var& current,
                            const std::string& path) {
  if (recorded.type() == typeid(Poco::JSON::Object::Ptr)) {
    if (current.type() != typeid(Poco::JSON::Object::Ptr)) return path + ": no longer an object";
    auto r = recorded.extract<Poco::JSON::Object::Ptr>();
    auto c = current.extract<Poco::JSON::Object::Ptr>();
    for (const auto& [k, v] : *r) {
      if (volatileKeys().count(k)) continue;
      if (!c->has(k)) return path + "." + k + ": missing";
      auto d = firstDifference(v, c->get(k), path + "." + k);
      if (!d.empty()) return d;
    }
    return "";
  }
  if (recorded.type() == typeid(Poco::JSON::Array::Ptr)) {
    if (current.type() != typeid(Poco::JSON::Array::Ptr)) return path + ": no longer an array";
    auto r = recorded.extract<Poco::JSON::Array::Ptr>();
    auto c = current.extract<Poco::JSON::Array::Ptr>();
    if (r->size() != c->size())
      return path + ": " + std::to_string(r->size()) + " items recorded, " + std::to_string(c->size()) + " now";
    for (std::size_t i = 0; i < r->size(); ++i) {
      auto d = firstDifference(r->get(i), c->get(i), path + "[" + std::to_string(i) + "]");
      if (!d.empty()) return d;
    }
    return "";
  }
  if (recorded.isEmpty() != current.isEmpty()) return path + ": null vs non-null";
  if (recorded.isEmpty()) return "";
  // Numbers compare as numbers (1 and 1.0 are the same answer); the rest as text.
  // Latency percentiles served from the analytics rollups' sketches are within 1 % of the
  // exact nearest rank (docs/features.md#analytics-rollups).
  if (recorded.isNumeric() && current.isNumeric() && path.find("latency") != std::string::npos &&
      path.find("count") == std::string::npos) {
    const double was = recorded.convert<double>(), now = current.convert<double>();
    if (std::fabs(now - was) > 0.01 * std::fabs(was) * (1 + 1e-9))
      return path + ": " + recorded.toString() + " recorded, " + current.toString() + " now (beyond 1 %)";
    return "";
  }
  if (recorded.isNumeric() && current.isNumeric()) {
    if (recorded.convert<double>() != current.convert<double>())
      return path + ": " + recorded.toString() + " recorded, " + current.toString() + " now";
    return "";
  }
  if (recorded.toString() != current.toString())
    return path + ": '" + recorded.toString() + "' recorded, '" + current.toString() + "' now";
  return "";
}

namespace {

// Since migration v19 (trace_texts) a trace ends at its last event's timestamp plus that
// event's duration (docs/features.md#traces); the release ended it at the timestamp. So a
// trace's `endTime` and `duration` may be later or longer than recorded, never earlier or
// shorter: where they are, the recorded value is put in the current answer before comparing.
void acceptLaterTraceEnds(const Poco::Dynamic::Var& recorded, const Poco::Dynamic::Var& current) {
  if (recorded.type() == typeid(Poco::JSON::Object::Ptr) && current.type() == typeid(Poco::JSON::Object::Ptr)) {
    auto r = recorded.extract<Poco::JSON::Object::Ptr>();
    auto c = current.extract<Poco::JSON::Object::Ptr>();
    for (const auto& [k, v] : *r) {
      if (!c->has(k)) continue;
      const auto now = c->get(k);
      if (k == "duration" && v.isNumeric() && now.isNumeric() && now.convert<double>() >= v.convert<double>())
        c->set(k, v);
      else if (k == "endTime" && v.isString() && now.isString() && now.toString() >= v.toString())
        c->set(k, v);  // RFC 3339 with a fixed fraction width: text order is time order
      else
        acceptLaterTraceEnds(v, now);
    }
  } else if (recorded.type() == typeid(Poco::JSON::Array::Ptr) && current.type() == typeid(Poco::JSON::Array::Ptr)) {
    auto r = recorded.extract<Poco::JSON::Array::Ptr>();
    auto c = current.extract<Poco::JSON::Array::Ptr>();
    for (std::size_t i = 0; i < r->size() && i < c->size(); ++i) acceptLaterTraceEnds(r->get(i), c->get(i));
  }
}

}  // namespace

std::string probeDifference(const std::string& path, const Poco::Dynamic::Var& recorded,
                            const Poco::Dynamic::Var& current) {
  if (path.rfind("/traces", 0) == 0) acceptLaterTraceEnds(recorded, current);
  if (path.rfind("/audit-logs/verify", 0) == 0) {
    auto now = current.extract<Poco::JSON::Object::Ptr>();
    if (!now->getValue<bool>("ok")) return "$.ok: the audit chain no longer verifies";
    auto before = recorded.extract<Poco::JSON::Object::Ptr>();
    if (now->getValue<std::int64_t>("headSeq") < before->getValue<std::int64_t>("headSeq"))
      return "$.headSeq: the audit chain is shorter than recorded";
    return "";
  }
  if (path.rfind("/audit-logs", 0) == 0) {
    auto was = recorded.extract<Poco::JSON::Object::Ptr>()->getArray("data");
    auto now = current.extract<Poco::JSON::Object::Ptr>()->getArray("data");
    if (now->size() < was->size()) return "$.data: fewer entries than recorded";
    const auto offset = now->size() - was->size();  // newest first: new entries come before
    for (std::size_t i = 0; i < was->size(); ++i) {
      auto d = firstDifference(was->get(i), now->get(offset + i), "$.data[" + std::to_string(offset + i) + "]");
      if (!d.empty()) return d;
    }
    return "";
  }
  return firstDifference(recorded, current);
}

}  // namespace aev::testing::upgrade
