// store/trace_texts.h: which text of an event is a trace's input and output, previews as
// one bounded line, and the gzip of answers (http/compression.h) round-tripping.
#include <Poco/InflatingStream.h>
#include <gtest/gtest.h>

#include <sstream>

#include "http/compression.h"
#include "store/trace_texts.h"

namespace aev::store {
namespace {

TEST(TraceTexts, NormalisedMessagesGiveTheLastUserMessageAndTheOutput) {
  auto t = conversationTexts(
      R"({"messages":{"input":[{"role":"system","content":"be brief"},{"role":"user","content":"first"},)"
      R"({"role":"assistant","content":"ok"},{"role":"user","content":"second"}],)"
      R"("output":[{"role":"assistant","content":"line 1"},{"role":"assistant","content":"line 2"}]}})",
      false);
  EXPECT_EQ(t.input, "second");
  EXPECT_EQ(t.output, "line 1\nline 2");
}

TEST(TraceTexts, AToolRequestNamesItsTools) {
  auto t = conversationTexts(
      R"({"messages":{"input":[],"output":[{"role":"assistant","content":null,"toolCalls":[{"name":"search"}]}]}})",
      false);
  EXPECT_FALSE(t.input);
  EXPECT_EQ(t.output, "tool calls: search");
}

TEST(TraceTexts, PayloadStringsAreTheFallbackExceptForToolCalls) {
  auto t = conversationTexts(R"({"prompt":"Hi","completion":"Hello"})", false);
  EXPECT_EQ(t.input, "Hi");
  EXPECT_EQ(t.output, "Hello");
  t = conversationTexts(R"({"input":"q","output":"a","prompt":"ignored"})", false);
  EXPECT_EQ(t.input, "q");
  EXPECT_EQ(t.output, "a");
  t = conversationTexts(R"({"input":"{\"city\":\"Paris\"}","output":"sunny"})", true);
  EXPECT_FALSE(t.input);
  EXPECT_FALSE(t.output);
  t = conversationTexts(R"({"step":"plan"})", false);
  EXPECT_FALSE(t.input);
  t = conversationTexts(R"({"input":42})", false);  // not a string
  EXPECT_FALSE(t.input);
}

TEST(TraceTexts, TextsAreBoundedInCharacters) {
  std::string longText;
  for (int i = 0; i < 5000; ++i) longText += "\xC3\xA9";  // é, two bytes
  auto t = conversationTexts(R"({"input":")" + longText + R"("})", false);
  ASSERT_TRUE(t.input);
  EXPECT_EQ(t.input->size(), 2 * kTraceTextChars);
}

TEST(TraceTexts, PreviewIsOneFoldedLine) {
  EXPECT_EQ(previewLine("  Hello\n\n  world\t!  "), "Hello world !");
  const auto line = previewLine(std::string(300, 'x'));
  EXPECT_EQ(line, std::string(kTracePreviewChars - 1, 'x') + "\xE2\x80\xA6");
  EXPECT_EQ(previewLine(std::string(kTracePreviewChars, 'y')), std::string(kTracePreviewChars, 'y'));
  EXPECT_EQ(firstChars("a\xC3\xA9z", 2), "a\xC3\xA9");
}

TEST(TraceTexts, TagsRoundTrip) {
  const std::map<std::string, std::string> tags = {{"a", "1"}, {"quote\"", "x\ny"}};
  EXPECT_EQ(tagsFromJson(tagsJson(tags)), tags);
  EXPECT_EQ(tagsJson({}), "{}");
}

TEST(AnswerCompression, GzipRoundTripsAndOnlyEligibleAnswersAreCompressed) {
  std::string body = "[";
  for (int i = 0; i < 200; ++i) body += R"({"n":)" + std::to_string(i) + "},";
  body.back() = ']';
  std::istringstream in(http::gzip(body));
  Poco::InflatingInputStream inflater(in, Poco::InflatingStreamBuf::STREAM_GZIP);
  std::ostringstream out;
  out << inflater.rdbuf();
  EXPECT_EQ(out.str(), body);

  EXPECT_TRUE(http::compressibleType("application/json"));
  EXPECT_TRUE(http::compressibleType("application/problem+json"));
  EXPECT_TRUE(http::compressibleType("text/plain; version=0.0.4"));
  EXPECT_FALSE(http::compressibleType("text/event-stream"));
  EXPECT_FALSE(http::compressibleType("image/png"));
  EXPECT_FALSE(http::compressibleType("application/x-protobuf"));
}

}  // namespace
}  // namespace aev::store
