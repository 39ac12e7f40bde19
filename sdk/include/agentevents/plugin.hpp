// The C++ layer over plugin_abi.h (header-only, C++17, standard library only).
//
// A plugin author writes a class per component and one AEV_PLUGIN(...) line:
//
//   class AcmePii final : public aev::Detector {
//    public:
//     AcmePii(const aev::Host& host, std::string_view configJson);  // may throw aev::ConfigError
//     std::vector<aev::Match> scan(const aev::ScanInput& in) const override;
//   };
//   AEV_PLUGIN("detector_acme", "1.0.0", "Acme Inc.",
//              aev::setting("prefix", aev::SettingType::String, "ACME", "prefix of a customer number"),
//              aev::detector<AcmePii>("acme.pii", "Acme customer numbers"));
//
// Declared settings (ABI 1.1) make the daemon check plugins.<plugin>.* for you: an
// unknown key or an ill-typed value stops it at start-up (exit 78), and an unset key
// reads as its default.
//
// AEV_PLUGIN defines the two exported entry points and C trampolines for every component.
// The trampolines turn exceptions into error results (aev::ConfigError → AEV_ERR_CONFIG,
// anything else → AEV_ERR_INTERNAL with the message), so none crosses the C boundary.
// Everything compiled from this header lives inside the plugin; only C types reach the host.
#pragma once

#include <agentevents/plugin_abi.h>

#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <exception>
#include <initializer_list>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace aev {

// ------------------------------------------------------------------ errors and status

// Throw from a constructor (or an onLoad hook) when the configuration is unusable; the
// host reports the message and the daemon refuses to start with it.
class ConfigError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

enum class Status : aev_status {
  Ok = AEV_OK,
  Retry = AEV_RETRY,
  Permanent = AEV_ERR_PERMANENT,
  Config = AEV_ERR_CONFIG,
  Unsupported = AEV_ERR_UNSUPPORTED,
  Internal = AEV_ERR_INTERNAL,
};

enum class LogLevel : aev_log_level {
  Trace = AEV_LOG_TRACE,
  Debug = AEV_LOG_DEBUG,
  Info = AEV_LOG_INFO,
  Warn = AEV_LOG_WARN,
  Error = AEV_LOG_ERROR,
};

inline aev_str toStr(std::string_view s) { return aev_str{s.data(), s.size()}; }
inline std::string_view toView(aev_str s) {
  return s.ptr ? std::string_view(s.ptr, s.len) : std::string_view();
}

// ------------------------------------------------------------------ host services

// A counter in the daemon's /metrics (aev_plugin_<name>_total{plugin="..."}).
class Counter {
 public:
  Counter() = default;
  Counter(const aev_host_api* api, aev_host* host, std::uint64_t handle)
      : api_(api), host_(host), handle_(handle) {}
  void add(std::int64_t delta = 1) const {
    if (api_ && handle_) api_->metric_add(host_, handle_, delta);
  }

 private:
  const aev_host_api* api_ = nullptr;
  aev_host* host_ = nullptr;
  std::uint64_t handle_ = 0;
};

// What the daemon offers the plugin: logging, its configuration section, metrics.
// Cheap to copy; valid for the life of the process.
class Host {
 public:
  Host(const aev_host_api* api, aev_host* host) : api_(api), host_(host) {}

  void log(LogLevel level, std::string_view msg) const {
    api_->log(host_, static_cast<aev_log_level>(level), toStr(msg));
  }
  bool logEnabled(LogLevel level) const {
    return api_->log_enabled(host_, static_cast<aev_log_level>(level));
  }
  void debug(std::string_view m) const { log(LogLevel::Debug, m); }
  void info(std::string_view m) const { log(LogLevel::Info, m); }
  void warn(std::string_view m) const { log(LogLevel::Warn, m); }
  void error(std::string_view m) const { log(LogLevel::Error, m); }

  // plugins.<plugin name>.<key> from the daemon's configuration.
  std::optional<std::string_view> config(std::string_view key) const {
    aev_str out{nullptr, 0};
    if (api_->config_get(host_, toStr(key), &out) != AEV_OK) return std::nullopt;
    return toView(out);
  }
  std::string configOr(std::string_view key, std::string_view fallback) const {
    auto v = config(key);
    return std::string(v ? *v : fallback);
  }
  // Integer setting; throws ConfigError when set but not an integer.
  std::int64_t configInt(std::string_view key, std::int64_t fallback) const {
    auto v = config(key);
    if (!v) return fallback;
    std::string s(*v);
    char* end = nullptr;
    errno = 0;
    long long n = std::strtoll(s.c_str(), &end, 10);
    if (s.empty() || *end != '\0' || errno != 0)
      throw ConfigError("setting " + std::string(key) + " is not an integer: " + s);
    return n;
  }
  // Boolean setting (true/false/1/0/yes/no/on/off); throws ConfigError otherwise.
  bool configBool(std::string_view key, bool fallback) const {
    auto v = config(key);
    if (!v) return fallback;
    if (*v == "true" || *v == "1" || *v == "yes" || *v == "on") return true;
    if (*v == "false" || *v == "0" || *v == "no" || *v == "off") return false;
    throw ConfigError("setting " + std::string(key) + " is not a boolean: " + std::string(*v));
  }
  // Number setting (e.g. 0.75, 1e3); throws ConfigError when set but not a finite number.
  double configNumber(std::string_view key, double fallback) const {
    auto v = config(key);
    if (!v) return fallback;
    std::string s(*v);
    char* end = nullptr;
    errno = 0;
    double d = std::strtod(s.c_str(), &end);
    if (s.empty() || *end != '\0' || errno != 0 || d != d || d - d != 0)
      throw ConfigError("setting " + std::string(key) + " is not a number: " + s);
    return d;
  }
  // Duration setting: an integer with ms, s, m or h ("500ms", "30s"); throws ConfigError
  // otherwise.
  std::chrono::milliseconds configDuration(std::string_view key, std::chrono::milliseconds fallback) const {
    auto v = config(key);
    if (!v) return fallback;
    std::string s(*v);
    std::size_t digits = 0;
    while (digits < s.size() && s[digits] >= '0' && s[digits] <= '9') ++digits;
    std::string unit = s.substr(digits);
    long long scale = unit == "ms" ? 1 : unit == "s" ? 1000 : unit == "m" ? 60000 : unit == "h" ? 3600000 : 0;
    if (digits == 0 || digits > 15 || scale == 0)
      throw ConfigError("setting " + std::string(key) + " is not a duration (e.g. 500ms, 30s, 5m): " + s);
    return std::chrono::milliseconds(std::strtoll(s.substr(0, digits).c_str(), nullptr, 10) * scale);
  }
  // List setting: comma-separated values, surrounding spaces trimmed, empty items dropped.
  std::vector<std::string> configList(std::string_view key, std::vector<std::string> fallback = {}) const {
    auto v = config(key);
    if (!v) return fallback;
    std::vector<std::string> out;
    std::string_view rest = *v;
    while (!rest.empty()) {
      auto comma = rest.find(',');
      auto item = rest.substr(0, comma);
      while (!item.empty() && (item.front() == ' ' || item.front() == '\t')) item.remove_prefix(1);
      while (!item.empty() && (item.back() == ' ' || item.back() == '\t')) item.remove_suffix(1);
      if (!item.empty()) out.emplace_back(item);
      if (comma == std::string_view::npos) break;
      rest.remove_prefix(comma + 1);
    }
    return out;
  }

  Counter counter(std::string_view name, std::string_view help = {}) const {
    return Counter(api_, host_, api_->metric_counter(host_, toStr(name), toStr(help)));
  }

  const aev_host_api* api() const { return api_; }
  aev_host* raw() const { return host_; }

 private:
  const aev_host_api* api_;
  aev_host* host_;
};

// The context of one callback: where errors, responses and retry hints go.
class Call {
 public:
  Call(const aev_host_api* api, aev_call* call) : api_(api), call_(call) {}

  void error(std::string_view message) const { api_->call_error(call_, toStr(message)); }
  // Time left for this call; use it as the I/O timeout.
  std::chrono::milliseconds deadline() const {
    return std::chrono::milliseconds(api_->call_deadline_ms(call_));
  }
  void response(int statusCode, std::string_view body) const {
    api_->call_response(call_, statusCode, toStr(body));
  }
  void retryAfter(std::chrono::milliseconds ms) const {
    api_->call_retry_after(call_, ms.count() < 0 ? 0 : static_cast<std::uint64_t>(ms.count()));
  }

 private:
  const aev_host_api* api_;
  aev_call* call_;
};

// ------------------------------------------------------------------ component interfaces

struct ScanInput {
  aev_target target = AEV_TARGET_REQUEST;
  std::string_view text;
  std::string_view eventType;
  std::string_view fieldPath;
};

// One finding: bytes [start, end) of the scanned text. label must outlive the call
// (a string literal or instance member).
struct Match {
  std::size_t start = 0;
  std::size_t end = 0;
  double score = 1.0;
  std::string_view label;
};

// Detectors are shared by all worker threads: scan() is const and must be re-entrant.
class Detector {
 public:
  virtual ~Detector() = default;
  virtual std::vector<Match> scan(const ScanInput& input) const = 0;
};

struct ExportInput {
  aev_signal signal = AEV_SIGNAL_LOGS;
  std::string_view eventsJson;  // a JSON array of stored events
  std::uint64_t eventCount = 0;
};

// Exporters are called one batch at a time per instance (unless registered with
// AEV_FLAG_CONCURRENT) and may block until call.deadline().
class Exporter {
 public:
  virtual ~Exporter() = default;
  virtual Status exportBatch(const ExportInput& input, const Call& call) = 0;
};

class AlertSink {
 public:
  virtual ~AlertSink() = default;
  virtual Status deliver(std::string_view alertJson, const Call& call) = 0;
};

struct KeyInput {
  std::string_view eventJson;
  std::string_view parameter;  // e.g. the tag key of the "tag" dimension
};

// Dimensions are shared by all worker threads: key() is const and must be re-entrant.
class Dimension {
 public:
  virtual ~Dimension() = default;
  // The event's key, or nullopt when it has none.
  virtual std::optional<std::string> key(const KeyInput& input) const = 0;
};

// ------------------------------------------------------------------ trampolines

namespace detail {

// The host table of this plugin (each plugin is its own shared object, so each has its
// own copy). Set once by aev_plugin_register_v1 before any other callback runs.
inline const aev_host_api*& hostApi() {
  static const aev_host_api* api = nullptr;
  return api;
}

// Runs fn, turning exceptions into status codes with a message on the call.
template <class Fn>
aev_status guarded(aev_call* call, Fn&& fn) noexcept {
  const aev_host_api* api = hostApi();
  auto report = [&](const char* what) {
    if (api && call) api->call_error(call, aev_str{what, std::char_traits<char>::length(what)});
  };
  try {
    return fn();
  } catch (const ConfigError& e) {
    report(e.what());
    return AEV_ERR_CONFIG;
  } catch (const std::exception& e) {
    report(e.what());
    return AEV_ERR_INTERNAL;
  } catch (...) {
    report("unknown exception");
    return AEV_ERR_INTERNAL;
  }
}

// Builds T from (host, config) or, when T accepts it, (host, config, component data).
template <class T>
T* construct(const void* data, aev_host* host, aev_str config) {
  Host h(hostApi(), host);
  std::string_view cfg = toView(config);
  if (cfg.empty()) cfg = "{}";
  if constexpr (std::is_constructible_v<T, const Host&, std::string_view, const void*>) {
    return new T(h, cfg, data);
  } else {
    (void)data;
    return new T(h, cfg);
  }
}

template <class T>
struct DetectorTrampolines {
  static aev_status create(const void* data, aev_host* host, aev_str config, void** instance, aev_call* call) {
    return guarded(call, [&] {
      *instance = static_cast<Detector*>(construct<T>(data, host, config));
      return AEV_OK;
    });
  }
  static void destroy(void* instance) { delete static_cast<Detector*>(instance); }
  static aev_status scan(const void* instance, const aev_scan_input* in, aev_call* call) {
    return guarded(call, [&] {
      ScanInput input;
      input.target = in->target;
      input.text = toView(in->text);
      input.eventType = toView(in->event_type);
      input.fieldPath = toView(in->field_path);
      auto matches = static_cast<const Detector*>(instance)->scan(input);
      for (const auto& m : matches) {
        aev_match out{};
        out.struct_size = sizeof(aev_match);
        out.start = m.start;
        out.end = m.end;
        out.score = m.score;
        out.label = toStr(m.label);
        hostApi()->call_add_match(call, &out);
      }
      return AEV_OK;
    });
  }
};

template <class T>
struct ExporterTrampolines {
  static aev_status open(const void* data, aev_host* host, aev_str config, void** instance, aev_call* call) {
    return guarded(call, [&] {
      *instance = static_cast<Exporter*>(construct<T>(data, host, config));
      return AEV_OK;
    });
  }
  static void close(void* instance) { delete static_cast<Exporter*>(instance); }
  static aev_status exportBatch(void* instance, const aev_export_input* in, aev_call* call) {
    return guarded(call, [&] {
      ExportInput input;
      input.signal = in->signal;
      input.eventsJson = toView(in->events_json);
      input.eventCount = in->event_count;
      return static_cast<aev_status>(static_cast<Exporter*>(instance)->exportBatch(input, Call(hostApi(), call)));
    });
  }
};

template <class T>
struct AlertSinkTrampolines {
  static aev_status open(const void* data, aev_host* host, aev_str config, void** instance, aev_call* call) {
    return guarded(call, [&] {
      *instance = static_cast<AlertSink*>(construct<T>(data, host, config));
      return AEV_OK;
    });
  }
  static void close(void* instance) { delete static_cast<AlertSink*>(instance); }
  static aev_status deliver(void* instance, aev_str alert, aev_call* call) {
    return guarded(call, [&] {
      return static_cast<aev_status>(static_cast<AlertSink*>(instance)->deliver(toView(alert), Call(hostApi(), call)));
    });
  }
};

template <class T>
struct DimensionTrampolines {
  static aev_status create(const void* data, aev_host* host, aev_str config, void** instance, aev_call* call) {
    return guarded(call, [&] {
      *instance = static_cast<Dimension*>(construct<T>(data, host, config));
      return AEV_OK;
    });
  }
  static void destroy(void* instance) { delete static_cast<Dimension*>(instance); }
  static aev_status key(const void* instance, const aev_key_input* in, aev_call* call) {
    return guarded(call, [&] {
      KeyInput input{toView(in->event_json), toView(in->parameter)};
      auto k = static_cast<const Dimension*>(instance)->key(input);
      if (k) hostApi()->call_set_key(call, toStr(*k));
      return AEV_OK;
    });
  }
};

}  // namespace detail

// ------------------------------------------------------------------ component descriptors

enum class SettingType : aev_setting_type {
  String = AEV_SETTING_STRING,
  Integer = AEV_SETTING_INTEGER,
  Number = AEV_SETTING_NUMBER,
  Boolean = AEV_SETTING_BOOLEAN,
  Duration = AEV_SETTING_DURATION,
  List = AEV_SETTING_LIST,
};

// One entry of AEV_PLUGIN(...): a filled C vtable of one kind, a declared setting, or an
// onLoad hook.
struct Component {
  enum class Kind { Detector, Exporter, AlertSink, Dimension, OnLoad, Setting };
  Kind kind;
  aev_detector_v1 detector{};
  aev_exporter_v1 exporter{};
  aev_alert_sink_v1 alertSink{};
  aev_dimension_v1 dimension{};
  aev_setting_v1 setting{};
  void (*onLoad)(const Host&) = nullptr;
};

// Declares setting plugins.<plugin>.<name> (ABI 1.1): its type, default (text form, or
// nullptr for none), a one-line description for --print-config-reference, and whether it
// is secret (never printed). On a 1.0 daemon the declaration is skipped and the readers'
// fallbacks apply. Read it with Host::config / configInt / configNumber / configBool /
// configDuration / configList.
inline Component setting(const char* name, SettingType type, const char* defaultValue, const char* description,
                         bool secret = false) {
  Component c{Component::Kind::Setting};
  auto& s = c.setting;
  s.struct_size = sizeof(aev_setting_v1);
  s.type = static_cast<aev_setting_type>(type);
  s.name = name;
  s.default_value = defaultValue;
  s.description = description;
  s.flags = secret ? static_cast<std::uint32_t>(AEV_SETTING_SECRET) : 0u;
  return c;
}

// A detector named `name` (the RuleDTO "detector" value) implemented by T.
// `data` is passed to T's constructor when it takes (const Host&, std::string_view, const void*).
template <class T>
Component detector(const char* name, const char* description, std::uint32_t targets = AEV_TARGET_ALL,
                   const char* configSchemaJson = nullptr, const void* data = nullptr) {
  static_assert(std::is_base_of_v<Detector, T>, "T must derive from aev::Detector");
  Component c{Component::Kind::Detector};
  auto& v = c.detector;
  v.struct_size = sizeof(aev_detector_v1);
  v.name = name;
  v.description = description;
  v.config_schema_json = configSchemaJson;
  v.component_data = data;
  v.targets = targets;
  v.create = &detail::DetectorTrampolines<T>::create;
  v.destroy = &detail::DetectorTrampolines<T>::destroy;
  v.scan = &detail::DetectorTrampolines<T>::scan;
  return c;
}

template <class T>
Component exporter(const char* name, const char* description, std::uint32_t signals, std::uint32_t flags = 0,
                   const char* configSchemaJson = nullptr, const void* data = nullptr) {
  static_assert(std::is_base_of_v<Exporter, T>, "T must derive from aev::Exporter");
  Component c{Component::Kind::Exporter};
  auto& v = c.exporter;
  v.struct_size = sizeof(aev_exporter_v1);
  v.flags = flags;
  v.name = name;
  v.description = description;
  v.config_schema_json = configSchemaJson;
  v.component_data = data;
  v.signals = signals;
  v.open = &detail::ExporterTrampolines<T>::open;
  v.export_batch = &detail::ExporterTrampolines<T>::exportBatch;
  v.close = &detail::ExporterTrampolines<T>::close;
  return c;
}

template <class T>
Component alertSink(const char* name, const char* description, std::uint32_t flags = 0,
                    const char* configSchemaJson = nullptr, const void* data = nullptr) {
  static_assert(std::is_base_of_v<AlertSink, T>, "T must derive from aev::AlertSink");
  Component c{Component::Kind::AlertSink};
  auto& v = c.alertSink;
  v.struct_size = sizeof(aev_alert_sink_v1);
  v.flags = flags;
  v.name = name;
  v.description = description;
  v.config_schema_json = configSchemaJson;
  v.component_data = data;
  v.open = &detail::AlertSinkTrampolines<T>::open;
  v.deliver = &detail::AlertSinkTrampolines<T>::deliver;
  v.close = &detail::AlertSinkTrampolines<T>::close;
  return c;
}

template <class T>
Component dimension(const char* name, const char* description, const void* data = nullptr,
                    const char* configSchemaJson = nullptr) {
  static_assert(std::is_base_of_v<Dimension, T>, "T must derive from aev::Dimension");
  Component c{Component::Kind::Dimension};
  auto& v = c.dimension;
  v.struct_size = sizeof(aev_dimension_v1);
  v.name = name;
  v.description = description;
  v.config_schema_json = configSchemaJson;
  v.component_data = data;
  v.create = &detail::DimensionTrampolines<T>::create;
  v.destroy = &detail::DimensionTrampolines<T>::destroy;
  v.key = &detail::DimensionTrampolines<T>::key;
  return c;
}

// Runs once at load, before the components are registered: validate the plugin's own
// settings (host.config(...)) and throw ConfigError to stop the daemon with a message.
inline Component onLoad(void (*fn)(const Host&)) {
  Component c{Component::Kind::OnLoad};
  c.onLoad = fn;
  return c;
}

namespace detail {

inline aev_status registerComponents(const aev_host_api* api, aev_host* host, aev_registrar* reg, aev_call* call,
                                     std::initializer_list<Component> components) noexcept {
  // Everything this layer calls is in the 1.0 table, which every 1.x host provides.
  if (!api) return AEV_ERR_INTERNAL;
  if (api->struct_size < AEV_HOST_API_SIZE_1_0) return AEV_ERR_UNSUPPORTED;
  hostApi() = api;
  return guarded(call, [&]() -> aev_status {
    Host h(api, host);
    // Settings first: from then on an unset key reads as its declared default.
    if (AEV_HOST_HAS(api, register_setting))
      for (const auto& c : components)
        if (c.kind == Component::Kind::Setting)
          if (aev_status s = api->register_setting(reg, &c.setting); s != AEV_OK) return s;
    for (const auto& c : components)
      if (c.kind == Component::Kind::OnLoad && c.onLoad) c.onLoad(h);
    for (const auto& c : components) {
      aev_status s = AEV_OK;
      switch (c.kind) {
        case Component::Kind::Detector: s = api->register_detector(reg, &c.detector); break;
        case Component::Kind::Exporter: s = api->register_exporter(reg, &c.exporter); break;
        case Component::Kind::AlertSink: s = api->register_alert_sink(reg, &c.alertSink); break;
        case Component::Kind::Dimension: s = api->register_dimension(reg, &c.dimension); break;
        case Component::Kind::OnLoad:
        case Component::Kind::Setting:
          break;
      }
      if (s != AEV_OK) return s;
    }
    return AEV_OK;
  });
}

}  // namespace detail
}  // namespace aev

// Defines the plugin's two entry points. NAME: [a-z0-9_]+ (by convention the .so name),
// VERSION: the plugin's version, VENDOR: who ships it, then one or more components:
//   AEV_PLUGIN("detector_acme", "1.0.0", "Acme Inc.", aev::detector<AcmePii>("acme.pii", "..."));
#define AEV_PLUGIN(NAME, VERSION, VENDOR, ...)                                                   \
  AEV_EXPORT const aev_plugin_manifest* aev_plugin_manifest_v1(void) {                          \
    static const aev_plugin_manifest manifest = {AEV_MANIFEST_HEADER, NAME, VERSION, VENDOR, nullptr}; \
    return &manifest;                                                                            \
  }                                                                                              \
  AEV_EXPORT aev_status aev_plugin_register_v1(const aev_host_api* api, aev_host* host,         \
                                               aev_registrar* reg, aev_call* call) {            \
    return ::aev::detail::registerComponents(api, host, reg, call, {__VA_ARGS__});               \
  }
