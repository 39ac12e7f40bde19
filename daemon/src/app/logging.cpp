#include "app/logging.h"

#include <spdlog/sinks/basic_file_sink.h>
#include <spdlog/sinks/stdout_sinks.h>
#include <spdlog/spdlog.h>

#include <spdlog/pattern_formatter.h>

#include <stdexcept>

#include "common/encoding.h"
#include "common/utf8.h"

namespace aev::app {

namespace {
// %* : the message as the inside of a JSON string, so JSON lines stay valid whatever a
// message contains (quotes in an error text, control characters from a client).
class JsonEscapedMessage : public spdlog::custom_flag_formatter {
 public:
  void format(const spdlog::details::log_msg& msg, const std::tm&, spdlog::memory_buf_t& dest) override {
    std::string_view text(msg.payload.data(), msg.payload.size());
    std::string repaired;  // a client's ill-formed UTF-8 quoted in a message: U+FFFD (common/utf8.h)
    if (!isValidUtf8(text)) {
      appendValidUtf8(repaired, text);
      text = repaired;
    }
    for (const char c : text) {
      switch (c) {
        case '"': dest.append(std::string_view("\\\"")); break;
        case '\\': dest.append(std::string_view("\\\\")); break;
        case '\n': dest.append(std::string_view("\\n")); break;
        case '\r': dest.append(std::string_view("\\r")); break;
        case '\t': dest.append(std::string_view("\\t")); break;
        default:
          if (static_cast<unsigned char>(c) < 0x20) {
            char esc[6] = {'\\', 'u', '0', '0', kLowerHexDigits[(c >> 4) & 0xF], kLowerHexDigits[c & 0xF]};
            dest.append(esc, esc + 6);
          } else {
            dest.push_back(c);
          }
      }
    }
  }
  std::unique_ptr<custom_flag_formatter> clone() const override { return std::make_unique<JsonEscapedMessage>(); }
};
}  // namespace

void setupLogging(const std::string& level, const std::string& format, const std::string& file) {
  std::shared_ptr<spdlog::sinks::sink> sink;
  if (file.empty())
    sink = std::make_shared<spdlog::sinks::stderr_sink_mt>();
  else
    sink = std::make_shared<spdlog::sinks::basic_file_sink_mt>(file);
  auto logger = std::make_shared<spdlog::logger>("agent-eventsd", sink);
  if (format == "json") {
    auto formatter = std::make_unique<spdlog::pattern_formatter>(spdlog::pattern_time_type::utc);
    formatter->add_flag<JsonEscapedMessage>('*').set_pattern(
        R"({"ts":"%Y-%m-%dT%H:%M:%S.%fZ","level":"%l","thread":%t,"msg":"%*"})");
    logger->set_formatter(std::move(formatter));
  } else if (format == "text") {
    logger->set_pattern("%Y-%m-%dT%H:%M:%S.%fZ %l [%t] %v", spdlog::pattern_time_type::utc);
  } else {
    throw std::invalid_argument("log.format must be text or json, not '" + format + "'");
  }
  auto lvl = spdlog::level::from_str(level);
  if (lvl == spdlog::level::off && level != "off")
    throw std::invalid_argument("log.level must be trace, debug, info, warn, error, critical or off");
  logger->set_level(lvl);
  logger->flush_on(spdlog::level::info);
  spdlog::set_default_logger(logger);
}

}  // namespace aev::app
