#pragma once
// What an upgrade must keep: the seed a release's daemon is given (fixture_writer.cpp),
// the read-only requests whose answers it recorded (the probes), and how a later
// release's answers are compared with them (every field recorded is answered the same;
// fields a later release adds are allowed).
#include <Poco/JSON/Object.h>

#include <cstdint>
#include <string>
#include <vector>

#include "support/http_client.h"

namespace aev::testing::upgrade {

// What the seed created, written to the fixture's manifest.json: enough to log in again
// and to name every resource the probes read.
struct SeedManifest {
  std::string login;
  std::string password;
  std::string apiKey;  // a publish+read key: a later release must still accept it
  std::int64_t orgId = 0;
  std::int64_t appId = 0;
  std::vector<std::int64_t> channelIds;
  std::vector<std::string> traceIds;
  // Event ids of the first channel in publish order: the resume check subscribes with
  // one of them as Last-Event-ID and expects exactly the ones after it.
  std::vector<std::int64_t> firstChannelEventIds;
  std::string windowSince;  // the fixed analytics window around the seeded events
  std::string windowUntil;

  Poco::JSON::Object::Ptr toJson() const;
  static SeedManifest fromJson(const Poco::JSON::Object::Ptr& json);
};

// The GET paths whose answers a fixture records, for this seed.
std::vector<std::string> probePaths(const SeedManifest& seed);

// Drops what legitimately differs between two runs on the same data: tokens, the
// server's own base URL (`$schema` links), times the daemon reads from the clock
// (the organization's month usage, a key's last use, audit verification times).
Poco::Dynamic::Var withoutVolatileFields(const Poco::Dynamic::Var& value);

// Empty when every field of `recorded` is present in `current` with the same value
// (arrays: same length, element by element); else the first difference, as a JSON path.
std::string firstDifference(const Poco::Dynamic::Var& recorded, const Poco::Dynamic::Var& current,
                            const std::string& path = "$");

// As firstDifference, for the probe at `path`. The audit log grows while it is read (the
// login that reads it is audited): its recorded entries must be the oldest of the current
// page, and the chain must still verify.
std::string probeDifference(const std::string& path, const Poco::Dynamic::Var& recorded,
                            const Poco::Dynamic::Var& current);

}  // namespace aev::testing::upgrade
