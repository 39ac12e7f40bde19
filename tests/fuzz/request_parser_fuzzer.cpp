// libFuzzer target for the HTTP/1.1 request parser, through its public interface only.
// The input is parsed twice: whole, and delivered in pieces cut at points the input's
// first bytes choose (as a slow or hostile client sends them). Both runs must agree
// request by request and on the error, never read past the input, never consume beyond
// what they were given, and never crash (ASan, UBSan). The limits are small so inputs
// longer than every limit (head, header count, body, chunk line) are easy to reach;
// http.dict gives the fuzzer the protocol's tokens.
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "http/request_parser.h"

namespace {

struct Outcome {
  std::vector<std::string> requests;  // method, target, headers and body of each complete request
  int error = 0;
};

std::string describe(const aev::http::WireRequest& r) {
  std::string out = r.method + ' ' + r.target + " 1." + std::to_string(r.versionMinor) + (r.keepAlive ? " ka" : "") +
                    (r.expectContinue ? " ec" : "") + '\n';
  for (const auto& [name, value] : r.headers) out += name + ": " + value + '\n';
  return out + '\n' + r.body;
}

Outcome run(const std::string& input, const std::vector<std::size_t>& cuts) {
  aev::http::ParserLimits limits;
  limits.maxHeadBytes = 2048;
  limits.maxHeaders = 16;
  limits.maxBodyBytes = 4096;
  aev::http::RequestParser parser(limits);
  Outcome out;
  std::string buffer;
  std::size_t pos = 0, from = 0;
  std::vector<std::size_t> ends = cuts;
  ends.push_back(input.size());
  for (std::size_t end : ends) {
    buffer.append(input, from, end - from);
    from = end;
    for (;;) {
      const std::size_t before = pos;
      auto state = parser.parse(buffer, pos);
      if (pos > buffer.size() || pos < before) std::abort();
      if (state == aev::http::RequestParser::State::kError) {
        if (parser.errorStatus() < 400 || parser.errorStatus() > 599) std::abort();
        out.error = parser.errorStatus();
        return out;
      }
      if (state == aev::http::RequestParser::State::kIncomplete) break;
      out.requests.push_back(describe(parser.take()));
    }
  }
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 2) return 0;
  // First byte: how many cuts (0-7); the cut points come from the following bytes.
  const std::size_t cutCount = data[0] % 8;
  if (size < 1 + cutCount) return 0;
  const std::string input(reinterpret_cast<const char*>(data) + 1 + cutCount, size - 1 - cutCount);
  std::vector<std::size_t> cuts;
  std::size_t at = 0;
  for (std::size_t i = 0; i < cutCount && !input.empty(); ++i) {
    at += 1 + (data[1 + i] * (input.size() + 1)) / 256 / (cutCount + 1);
    if (at >= input.size()) break;
    cuts.push_back(at);
  }
  const auto whole = run(input, {});
  const auto pieces = run(input, cuts);
  if (whole.requests != pieces.requests || whole.error != pieces.error) std::abort();
  // Byte by byte, the slowest client there is.
  if (input.size() <= 512) {
    std::vector<std::size_t> every;
    for (std::size_t i = 1; i < input.size(); ++i) every.push_back(i);
    const auto bytes = run(input, every);
    if (whole.requests != bytes.requests || whole.error != bytes.error) std::abort();
  }
  return 0;
}
