#pragma once
// Shared helpers of the events suites (apps, channels, publishing, streaming): a tenant
// (a fresh user acting on its personal organization through x-tenant-id), app/channel
// creation, publishing, API keys with scopes, and SSE subscriptions read by the raw
// client of support/sse_client.h.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "support/api_fixture.h"
#include "support/sse_client.h"

namespace aev::testing {

using namespace std::chrono_literals;

// Bounded waits of the events suites: long enough for a loaded 2-core CI machine, short
// enough that a hang fails within the suite's budget.
inline constexpr auto kWait = 10s;

struct Tenant {
  TestUser user;
  std::int64_t orgId = 0;
  HttpClient http;  // Bearer + x-tenant-id of the personal organization
  std::string bearer() const { return "Bearer " + user.accessToken; }
};

struct ApiKey {
  std::int64_t id = 0;
  std::string key;
};

class EventsTest : public ApiTest {
 protected:
  // A fresh user; requests carry x-tenant-id = its personal organization.
  static Tenant newTenant(const std::string& tag = "ev");
  // POST /apps, POST /apps/{appId}/channels; throw std::runtime_error on failure.
  static std::int64_t createApp(const Tenant& t, const std::string& name = "");
  static std::int64_t createChannel(const Tenant& t, std::int64_t appId, const std::string& name = "");
  static std::int64_t newChannel(const Tenant& t);  // a new app with one channel

  // The body of POST /event: identifier, payload, channel_id plus `extra` fields.
  static Poco::JSON::Object::Ptr eventBody(std::int64_t channelId, const std::string& identifier,
                                           Poco::JSON::Object::Ptr payload = nullptr,
                                           Poco::JSON::Object::Ptr extra = nullptr);
  // Publishes and returns the stored event; throws unless the answer is 201.
  static Poco::JSON::Object::Ptr publish(const HttpClient& http, std::int64_t channelId, const std::string& identifier,
                                         Poco::JSON::Object::Ptr payload = nullptr,
                                         Poco::JSON::Object::Ptr extra = nullptr);
  // Publishes n events "<prefix>-<i>" and returns their ids in publish order.
  static std::vector<std::int64_t> publishMany(const HttpClient& http, std::int64_t channelId, int n,
                                               const std::string& prefix = "ev");

  static ApiKey createKey(const Tenant& t, std::vector<std::string> scopes);

  // Starts a subscription and waits for its head (and, when it is a 200 stream, its
  // `retry:`). Check it with IsStreamOpen().
  static std::unique_ptr<SseStream> subscribe(const std::string& path, const Headers& headers, int receiveBuffer = 0);
  static std::string subscribePath(std::int64_t channelId, const std::string& query = "");

  // "/event/<ch>/list?limit=100" read in full (all pages), newest first: id and identifier.
  static std::vector<std::pair<std::int64_t, std::string>> listEvents(const HttpClient& http, std::int64_t channelId);
  // Their ids only.
  static std::vector<std::int64_t> listIds(const HttpClient& http, std::int64_t channelId);
  static std::int64_t listTotal(const HttpClient& http, std::int64_t channelId);
};

// 200, text/event-stream, and the `retry:` line has arrived.
::testing::AssertionResult IsStreamOpen(const SseStream& s);
// The ids of messages, in order.
std::vector<std::int64_t> idsOf(const std::vector<SseMessage>& messages);
// Reads messages until one with id `lastId` (inclusive) arrived; returns all of them.
std::vector<SseMessage> readThrough(SseStream& s, std::int64_t lastId, std::chrono::milliseconds timeout = kWait);
// Strips `: keep-alive` comment blocks from a raw stream body.
std::string withoutKeepAlives(std::string body);
std::string joinIds(const std::vector<std::int64_t>& ids);

}  // namespace aev::testing
