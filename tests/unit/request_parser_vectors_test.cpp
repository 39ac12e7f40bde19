// The request parser against the vectors of tests/http_vectors/vectors.json, each fed
// whole, split in two at every byte offset, and one byte at a time, with the buffer kept
// the way the server keeps it (the consumed prefix erased after each incomplete parse).
// The answer must be the same however the bytes arrive: a limit or a framing rule that
// depends on the split is a request one front end accepts and another refuses.
#include <Poco/JSON/Array.h>
#include <Poco/JSON/Object.h>
#include <Poco/JSON/Parser.h>
#include <Poco/Latin1Encoding.h>
#include <Poco/TextConverter.h>
#include <Poco/UTF8Encoding.h>
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "http/request_parser.h"

namespace aev::http {
namespace {

using State = RequestParser::State;

// The vectors' strings carry bytes as the code points U+0000..U+00FF.
std::string bytesOf(const std::string& utf8) {
  Poco::UTF8Encoding from;
  Poco::Latin1Encoding to;
  Poco::TextConverter converter(from, to);
  std::string out;
  converter.convert(utf8, out);
  return out;
}

std::string rawOf(const Poco::Dynamic::Var& raw) {
  if (raw.isString()) return bytesOf(raw.extract<std::string>());
  std::string out;
  for (const auto& part : *raw.extract<Poco::JSON::Array::Ptr>()) {
    if (part.isString()) {
      out += bytesOf(part.extract<std::string>());
    } else {
      const auto run = part.extract<Poco::JSON::Object::Ptr>();
      const auto text = bytesOf(run->getValue<std::string>("repeat"));
      for (int i = run->getValue<int>("times"); i > 0; --i) out += text;
    }
  }
  return out;
}

struct Parsed {
  std::string method, target, body;
  bool operator==(const Parsed&) const = default;
};

struct Outcome {
  int status = 0;  // the refusal's status, 0 when nothing was refused
  std::vector<Parsed> requests;
  bool incomplete = false;  // a request was still being read when the bytes ran out
  bool operator==(const Outcome&) const = default;
};

std::string describe(const Outcome& o) {
  std::ostringstream out;
  out << "status " << o.status << (o.incomplete ? ", incomplete" : "") << ", requests:";
  for (const auto& r : o.requests) out << " [" << r.method << " " << r.target << " body " << r.body.size() << "B]";
  return out.str();
}

// Feeds raw in pieces ending at each of `cuts` (then the rest), as Server::serve does.
Outcome feed(const std::string& raw, const std::vector<std::size_t>& cuts) {
  RequestParser parser;
  Outcome out;
  std::string buffer;
  std::size_t pos = 0, from = 0;
  auto pieceEnds = cuts;
  pieceEnds.push_back(raw.size());
  for (const auto end : pieceEnds) {
    buffer.append(raw, from, end - from);
    from = end;
    for (;;) {
      const auto state = parser.parse(buffer, pos);
      if (state == State::kError) {
        out.status = parser.errorStatus();
        return out;
      }
      if (state == State::kIncomplete) break;
      auto r = parser.take();
      out.requests.push_back({r.method, r.target, r.body});
      if (pos == buffer.size()) {
        buffer.clear();
        pos = 0;
      }
    }
    if (pos > 0) {
      buffer.erase(0, pos);
      pos = 0;
    }
  }
  out.incomplete = parser.started();
  return out;
}

Outcome expectedOf(const Poco::JSON::Object::Ptr& ours) {
  Outcome o;
  if (ours->has("status")) o.status = ours->getValue<int>("status");
  if (ours->has("incomplete")) o.incomplete = ours->getValue<bool>("incomplete");
  if (auto list = ours->getArray("requests"))
    for (const auto& r : *list) {
      const auto obj = r.extract<Poco::JSON::Object::Ptr>();
      o.requests.push_back({bytesOf(obj->getValue<std::string>("method")),
                            bytesOf(obj->getValue<std::string>("target")),
                            bytesOf(obj->getValue<std::string>("body"))});
    }
  return o;
}

Poco::JSON::Array::Ptr vectors() {
  std::ifstream file(AEV_HTTP_VECTORS);
  std::stringstream text;
  text << file.rdbuf();
  return Poco::JSON::Parser().parse(text.str()).extract<Poco::JSON::Object::Ptr>()->getArray("vectors");
}

TEST(RequestParserVectors, SameAnswerWholeSplitAtEveryOffsetAndByteByByte) {
  const auto list = vectors();
  ASSERT_TRUE(list);
  ASSERT_GT(list->size(), 40u);
  for (const auto& entry : *list) {
    const auto v = entry.extract<Poco::JSON::Object::Ptr>();
    const auto name = v->getValue<std::string>("name");
    const auto raw = rawOf(v->get("raw"));
    const auto expected = expectedOf(v->getObject("ours"));
    SCOPED_TRACE(name);
    const auto whole = feed(raw, {});
    EXPECT_EQ(whole, expected) << "whole: " << describe(whole) << "\nexpected: " << describe(expected);
    std::vector<std::size_t> everyByte;
    for (std::size_t k = 1; k < raw.size(); ++k) {
      const auto split = feed(raw, {k});
      if (!(split == expected)) {
        ADD_FAILURE() << "split at " << k << ": " << describe(split) << "\nexpected: " << describe(expected);
        break;
      }
      everyByte.push_back(k);
    }
    const auto bytewise = feed(raw, everyByte);
    EXPECT_EQ(bytewise, expected) << "byte by byte: " << describe(bytewise) << "\nexpected: " << describe(expected);
  }
}

}  // namespace
}  // namespace aev::http
