// traces::linkToolCalls: which requested tool call each tool run of a trace answered.
#include <gtest/gtest.h>

#include "traces/tool_call_links.h"

namespace aev::traces {
namespace {

store::StoredEvent llmCall(std::int64_t id, const std::string& toolCallsJson) {
  store::StoredEvent e;
  e.id = id;
  e.eventType = "agent.message";
  e.payloadJson =
      R"({"messages":{"input":[],"output":[{"role":"assistant","content":null,"toolCalls":)" + toolCallsJson + "}]}}";
  return e;
}

store::StoredEvent run(std::int64_t id, const std::string& type, const std::string& tool,
                       const std::string& callId = "") {
  store::StoredEvent e;
  e.id = id;
  e.eventType = type;
  e.telemetry.tool = tool;
  e.payloadJson = "{}";
  e.metadataJson = callId.empty() ? R"({"tool":")" + tool + R"("})"
                                  : R"({"tool":")" + tool + R"(","tool_call_id":")" + callId + R"("})";
  return e;
}

TEST(ToolCallLinks, ById) {
  std::vector<store::StoredEvent> events = {
      llmCall(1, R"([{"id":"a","name":"x"},{"id":"b","name":"y"}])"),
      run(2, "agent.tool_call.end", "y", "b"),
      run(3, "agent.tool_call.end", "x", "a"),
  };
  auto links = linkToolCalls(events);
  ASSERT_TRUE(links.requestedBy[1]);
  EXPECT_EQ(links.requestedBy[1]->requester, 0u);
  EXPECT_EQ(links.requestedBy[1]->call, 1u);
  EXPECT_TRUE(links.requestedBy[1]->byId);
  ASSERT_TRUE(links.requestedBy[2]);
  EXPECT_EQ(links.requestedBy[2]->call, 0u);
  EXPECT_EQ(links.requested[0][0].answeredBy, 2u);
  EXPECT_EQ(links.requested[0][1].answeredBy, 1u);
  EXPECT_EQ(links.callId[1], "b");
  EXPECT_FALSE(links.requestedBy[0]);
}

// Ids repeated across LLM calls (a fake server, or ids unique per response only): the latest
// earlier request with the id, naming the run's tool, wins.
TEST(ToolCallLinks, RepeatedIdsPreferTheLatestEarlierRequestOfTheTool) {
  std::vector<store::StoredEvent> events = {
      llmCall(1, R"([{"id":"call_1","name":"x"}])"), run(2, "agent.tool_call.end", "x", "call_1"),
      llmCall(3, R"([{"id":"call_1","name":"y"}])"), run(4, "agent.tool_call.end", "y", "call_1"),
      run(5, "agent.tool_call.end", "x", "call_1"),
  };
  auto links = linkToolCalls(events);
  EXPECT_EQ(links.requestedBy[1]->requester, 0u);
  EXPECT_EQ(links.requestedBy[3]->requester, 2u);
  EXPECT_EQ(links.requestedBy[4]->requester, 0u) << "the request naming x";
}

TEST(ToolCallLinks, ARunBeforeItsRequestStillLinksById) {
  std::vector<store::StoredEvent> events = {
      run(1, "agent.tool_call.end", "x", "a"),
      llmCall(2, R"([{"id":"a","name":"x"}])"),
  };
  auto links = linkToolCalls(events);
  ASSERT_TRUE(links.requestedBy[0]);
  EXPECT_EQ(links.requestedBy[0]->requester, 1u);
}

TEST(ToolCallLinks, WithoutIdsByNameAndOrderEachRequestOnce) {
  std::vector<store::StoredEvent> events = {
      llmCall(1, R"([{"id":"a","name":"x"},{"id":"b","name":"x"}])"),
      run(2, "agent.tool_call.start", "x"),
      run(3, "agent.tool_call.end", "x"),
      run(4, "agent.tool_call.start", "x"),
      run(5, "agent.tool_call.end", "x"),
      run(6, "agent.tool_call.end", "x"),  // a third run: both requests answered already
  };
  auto links = linkToolCalls(events);
  ASSERT_TRUE(links.requestedBy[1] && links.requestedBy[2] && links.requestedBy[3] && links.requestedBy[4]);
  EXPECT_EQ(links.requestedBy[1]->call, 0u);
  EXPECT_EQ(links.requestedBy[2]->call, 0u) << "the end shares its start's request";
  EXPECT_EQ(links.requestedBy[3]->call, 1u);
  EXPECT_EQ(links.requestedBy[4]->call, 1u);
  EXPECT_FALSE(links.requestedBy[1]->byId);
  EXPECT_FALSE(links.requestedBy[5]);
  EXPECT_EQ(links.requested[0][0].answeredBy, 1u) << "the first event of the run";
}

TEST(ToolCallLinks, ARunNeverTakesALaterRequestByName) {
  std::vector<store::StoredEvent> events = {
      run(1, "agent.tool_call.end", "x"),
      llmCall(2, R"([{"name":"x"}])"),
  };
  auto links = linkToolCalls(events);
  EXPECT_FALSE(links.requestedBy[0]);
  EXPECT_FALSE(links.requested[1][0].id);
}

store::StoredEvent handoffTo(std::int64_t id, const std::string& target) {
  store::StoredEvent e;
  e.id = id;
  e.eventType = "agent.handoff";
  e.payloadJson = "{}";
  e.metadataJson = R"({"handoff_to":")" + target + R"(","semantic_kind":"handoff"})";
  return e;
}

TEST(ToolCallLinks, AHandoffAnswersItsTransferRequest) {
  std::vector<store::StoredEvent> events = {llmCall(1, R"([{"id":"c","name":"transfer_to_Weather_Desk"}])"),
                                            handoffTo(2, "Weather Desk")};
  auto links = linkToolCalls(events);
  ASSERT_TRUE(links.requestedBy[1]);
  EXPECT_EQ(links.requestedBy[1]->requester, 0u);
}

TEST(ToolCallLinks, NoRequestsNoLinksAndNoParse) {
  std::vector<store::StoredEvent> events = {run(1, "agent.tool_call.end", "x", "a")};
  events.push_back(llmCall(2, "[]"));
  events.back().payloadJson = "{not json";  // never read: it names no toolCalls
  auto links = linkToolCalls(events);
  EXPECT_FALSE(links.requestedBy[0]);
  EXPECT_EQ(links.callId[0], "a");
  EXPECT_TRUE(links.requested[1].empty());
}

}  // namespace
}  // namespace aev::traces
