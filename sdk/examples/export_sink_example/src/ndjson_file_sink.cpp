// An example export sink: appends every exported event as one line of JSON (NDJSON) to a
// file. Each export destination of kind "ndjson_file" names its own file in its `config`
// ({"path": "/var/lib/agent-events/export/acme.ndjson"}), so two destinations (of two
// organizations, say) never share one. A file that cannot be written is a transient
// failure (AEV_RETRY): the daemon retries the batch on its schedule, then gives it up
// (shown in the destination's health) until it is redelivered.
#include <agentevents/json.hpp>
#include <agentevents/plugin.hpp>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string>

namespace {

// The destination's `config`, as GET /export-destinations/kinds shows it.
constexpr const char* kSchema = R"({
  "type": "object",
  "required": ["path"],
  "properties": {
    "path": {"type": "string", "description": "absolute path of the file the events are appended to"}
  }
})";

class NdjsonFileSink final : public aev::Exporter {
 public:
  // Runs when a destination is created or changed (the daemon checks the config then)
  // and before its first batch. aev::ConfigError refuses the config with its message.
  NdjsonFileSink(const aev::Host& host, std::string_view config) : host_(host) {
    auto cfg = aev::json::parse(config);
    const auto* path = cfg.find("path");
    if (!path || !path->isString() || path->text().empty() || path->text()[0] != '/')
      throw aev::ConfigError("path must be an absolute file path");
    path_ = path->text();
  }

  // One batch: a JSON array of stored events, oldest first. Called one at a time per
  // destination (no AEV_FLAG_CONCURRENT), so appending needs no lock.
  aev::Status exportBatch(const aev::ExportInput& in, const aev::Call& call) override {
    auto events = aev::json::parse(in.eventsJson);
    std::string lines;
    for (const auto& e : events.items()) {
      e.dumpTo(lines);
      lines += '\n';
    }
    std::FILE* f = std::fopen(path_.c_str(), "a");
    if (!f) {
      call.error("cannot open " + path_ + ": " + std::strerror(errno));
      return aev::Status::Retry;
    }
    const bool written = std::fwrite(lines.data(), 1, lines.size(), f) == lines.size();
    const bool closed = std::fclose(f) == 0;
    if (!written || !closed) {
      call.error("cannot write " + path_ + ": " + std::strerror(errno));
      return aev::Status::Retry;
    }
    call.response(0, std::to_string(events.items().size()) + " events appended to " + path_);
    return aev::Status::Ok;
  }

 private:
  aev::Host host_;
  std::string path_;
};

}  // namespace

// Only the logs signal: a destination of this kind sets "signals": ["logs"].
AEV_PLUGIN("export_sink_example", "1.0.0", "Example Corp",
           aev::exporter<NdjsonFileSink>("ndjson_file", "Events appended as NDJSON to a file per destination",
                                         AEV_SIGNAL_LOGS, 0, kSchema))
