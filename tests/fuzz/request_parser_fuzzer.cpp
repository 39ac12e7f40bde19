// libFuzzer target for the HTTP/1.1 request parser (reliability checklist B9). The input
// is parsed twice, whole and in two pieces split where its first byte says; both runs must
// agree request by request, never read past the input, and never crash (ASan, UBSan).
//   clang++ -std=c++20 -g -O1 -fsanitize=fuzzer,address,undefined -I daemon/src \
//     tests/fuzz/request_parser_fuzzer.cpp daemon/src/http/request_parser.cpp -o /tmp/parser_fuzzer
//   /tmp/parser_fuzzer -max_total_time=60 tests/fuzz/corpus/request_parser
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "http/request_parser.h"

namespace {

struct Outcome {
  std::vector<std::string> requests;  // method, target, body of each complete request
  int error = 0;
};

Outcome run(const std::string& input, std::size_t split) {
  aev::http::ParserLimits limits;
  limits.maxHeadBytes = 2048;
  limits.maxHeaders = 16;
  limits.maxBodyBytes = 4096;
  aev::http::RequestParser parser(limits);
  Outcome out;
  std::string buffer;
  std::size_t pos = 0;
  for (const std::string& piece : {input.substr(0, split), input.substr(split)}) {
    buffer += piece;
    for (;;) {
      auto state = parser.parse(buffer, pos);
      if (pos > buffer.size()) std::abort();
      if (state == aev::http::RequestParser::State::kError) {
        out.error = parser.errorStatus();
        return out;
      }
      if (state == aev::http::RequestParser::State::kIncomplete) break;
      auto r = parser.take();
      out.requests.push_back(r.method + ' ' + r.target + ' ' + r.body);
    }
  }
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::string input(reinterpret_cast<const char*>(data) + 1, size - 1);
  const std::size_t split = input.empty() ? 0 : data[0] % (input.size() + 1);
  const auto whole = run(input, input.size());
  const auto pieces = run(input, split);
  if (whole.requests != pieces.requests || whole.error != pieces.error) std::abort();
  return 0;
}
