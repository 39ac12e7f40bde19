#include "plugins/host_api.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>
#include <string_view>
#include <type_traits>

#include "common/metrics.h"
#include "plugins/abi_prefix.h"
#include "plugins/host_handles.h"
#include "plugins/registry.h"
#include "plugins/settings.h"
#include "plugins/validation.h"

namespace aev::plugins {

namespace {

constexpr std::size_t kMaxErrorBytes = 4096;
constexpr std::size_t kMaxResponseBytes = 4096;
constexpr std::size_t kMaxKeyBytes = 1024;
constexpr std::size_t kMaxLabelBytes = 128;
constexpr std::size_t kMaxDescriptionBytes = 1024;
constexpr std::size_t kMaxSchemaBytes = 64 * 1024;
constexpr std::uint64_t kMaxRetryAfterMs = 24ull * 3600 * 1000;

// A view of plugin memory, or nullopt for the one malformed case we can detect.
std::optional<std::string_view> view(aev_str s) {
  if (s.len == 0) return std::string_view();
  if (!s.ptr) return std::nullopt;
  return std::string_view(s.ptr, s.len);
}

spdlog::level::level_enum toSpdlog(aev_log_level level) {
  switch (level) {
    case AEV_LOG_TRACE: return spdlog::level::trace;
    case AEV_LOG_DEBUG: return spdlog::level::debug;
    case AEV_LOG_INFO: return spdlog::level::info;
    case AEV_LOG_WARN: return spdlog::level::warn;
    default: return spdlog::level::err;
  }
}

// The call handle is used on its own thread, for its own purpose.
bool usable(const aev_call* call, aev_call::Purpose purpose) {
  return call && call->purpose == purpose && call->thread == std::this_thread::get_id();
}

void reject(aev_call* call, std::string why) {
  if (call->rejected++ == 0) call->firstRejection = std::move(why);
}

// ---------------------------------------------------------------- logging, config, metrics

void hostLog(aev_host* host, aev_log_level level, aev_str msg) {
  if (!host) return;
  auto text = view(msg);
  if (!text) return;
  auto lvl = toSpdlog(level);
  if (!spdlog::should_log(lvl)) return;
  spdlog::log(lvl, "plugin {}: {}", host->pluginName, oneLine(*text));
}

bool hostLogEnabled(aev_host*, aev_log_level level) { return spdlog::should_log(toSpdlog(level)); }

aev_status hostConfigGet(aev_host* host, aev_str key, aev_str* value) {
  auto k = view(key);
  if (!host || !value || !k || k->empty()) return AEV_ERR_INVALID_ARGUMENT;
  auto it = host->config->find(host->configPrefix + std::string(*k));
  if (it == host->config->end()) {
    // A declared setting that is not set reads as its default (the spec outlives the call).
    auto declared = host->settings.find(std::string(*k));
    if (declared == host->settings.end() || !declared->second.defaultValue) return AEV_ERR_NOT_FOUND;
    *value = aev_str{declared->second.defaultValue->data(), declared->second.defaultValue->size()};
    return AEV_OK;
  }
  // The map is immutable and kept alive by the host handle: the view stays valid.
  *value = aev_str{it->second.data(), it->second.size()};
  return AEV_OK;
}

std::uint64_t hostMetricCounter(aev_host* host, aev_str name, aev_str help) {
  auto n = view(name);
  auto h = view(help);
  if (!host || !n || !h) return 0;
  std::string base(*n);
  if (base.size() > 6 && base.ends_with("_total")) base.resize(base.size() - 6);
  if (!isValidMetricName(base)) return 0;

  std::lock_guard lock(host->counterMutex);
  for (std::size_t i = 0; i < host->counterNames.size(); ++i)
    if (host->counterNames[i] == base) return i + 1;
  if (host->counterNames.size() >= aev_host::kMaxCounters) return 0;
  auto& counter = Metrics::instance().counter("aev_plugin_" + base + "_total{plugin=\"" + host->pluginName + "\"}",
                                              oneLine(*h, 200));
  host->counters[host->counterNames.size()].store(&counter, std::memory_order_release);
  host->counterNames.push_back(base);
  return host->counterNames.size();
}

void hostMetricAdd(aev_host* host, std::uint64_t counter, std::int64_t delta) {
  if (!host || counter == 0 || counter > aev_host::kMaxCounters) return;
  auto* slot = host->counters[counter - 1].load(std::memory_order_acquire);
  if (slot) slot->fetch_add(delta, std::memory_order_relaxed);
}

// ---------------------------------------------------------------- registration

// The 1.0 size of each vtable: the smallest struct_size the host accepts.
constexpr std::size_t sizeOf10(const aev_detector_v1*) { return AEV_DETECTOR_V1_SIZE_1_0; }
constexpr std::size_t sizeOf10(const aev_exporter_v1*) { return AEV_EXPORTER_V1_SIZE_1_0; }
constexpr std::size_t sizeOf10(const aev_alert_sink_v1*) { return AEV_ALERT_SINK_V1_SIZE_1_0; }
constexpr std::size_t sizeOf10(const aev_dimension_v1*) { return AEV_DIMENSION_V1_SIZE_1_0; }

// Reads a vtable of plugin-compiled size (abi_prefix.h): fields a later minor appended
// stay zero when the plugin was built against an older SDK.
template <class VTable>
std::optional<VTable> copyVtable(const VTable* src, std::string& problem) {
  if (!src) {
    problem = "vtable is NULL";
    return std::nullopt;
  }
  const std::uint32_t size = declaredSize(src);
  auto vt = readPrefix<VTable>(src, size, sizeOf10(src));
  if (!vt)
    problem = "vtable struct_size " + std::to_string(size) + " is smaller than the ABI 1.0 layout (" +
              std::to_string(sizeOf10(src)) + " bytes)";
  return vt;
}

// The first required function a vtable leaves NULL, or nullptr when complete.
const char* missingFunction(const aev_detector_v1& v) {
  return !v.create ? "create" : !v.destroy ? "destroy" : !v.scan ? "scan" : nullptr;
}
const char* missingFunction(const aev_exporter_v1& v) {
  return !v.open ? "open" : !v.export_batch ? "export_batch" : !v.close ? "close" : nullptr;
}
const char* missingFunction(const aev_alert_sink_v1& v) {
  return !v.open ? "open" : !v.deliver ? "deliver" : !v.close ? "close" : nullptr;
}
const char* missingFunction(const aev_dimension_v1& v) {
  // create is optional; destroy is required exactly when create is present.
  return !v.key ? "key" : (v.create && !v.destroy) ? "destroy (create is set)" : nullptr;
}

void store(PendingComponent& p, const aev_detector_v1& v) { p.detector = v; }
void store(PendingComponent& p, const aev_exporter_v1& v) { p.exporter = v; }
void store(PendingComponent& p, const aev_alert_sink_v1& v) { p.alertSink = v; }
void store(PendingComponent& p, const aev_dimension_v1& v) { p.dimension = v; }

template <class VTable>
aev_status registerComponent(aev_registrar* reg, const VTable* src, Kind kind) {
  if (!reg || !reg->open || reg->thread != std::this_thread::get_id()) return AEV_ERR_INVALID_ARGUMENT;
  auto refuse = [&](const std::string& what) {
    reg->problems.push_back(std::string(kindName(kind)) + ": " + what);
    return AEV_ERR_INVALID_ARGUMENT;
  };

  std::string problem;
  auto vt = copyVtable(src, problem);
  if (!vt) return refuse(problem);

  PendingComponent p;
  p.kind = kind;
  auto name = boundedCString(vt->name, 64);
  if (!name || !isValidComponentName(*name))
    return refuse("invalid name (expected [A-Za-z][A-Za-z0-9_.-]*, at most 64 bytes)");
  p.name = *name;
  if (vt->description) {
    auto d = boundedCString(vt->description, kMaxDescriptionBytes);
    if (!d) return refuse("\"" + p.name + "\": description is not a NUL-terminated string of at most 1 KiB");
    p.description = oneLine(*d);
  }
  if (vt->config_schema_json) {
    auto s = boundedCString(vt->config_schema_json, kMaxSchemaBytes);
    if (!s) return refuse("\"" + p.name + "\": config_schema_json is not a NUL-terminated string of at most 64 KiB");
    p.configSchema = *s;
  }
  if (const char* fn = missingFunction(*vt)) return refuse("\"" + p.name + "\": required function " + fn + " is NULL");
  if constexpr (std::is_same_v<VTable, aev_exporter_v1>) {
    if ((vt->signals & (AEV_SIGNAL_TRACES | AEV_SIGNAL_LOGS | AEV_SIGNAL_METRICS)) == 0)
      return refuse("\"" + p.name + "\": declares no known signal");
  }

  auto owner = reg->registry->ownerOf(kind, p.name);
  if (!owner.empty())
    return refuse("duplicate component name \"" + p.name + "\": already provided by plugin " + owner);
  for (const auto& other : reg->components)
    if (other.kind == kind && other.name == p.name)
      return refuse("duplicate component name \"" + p.name + "\" registered twice by this plugin");

  store(p, *vt);
  reg->components.push_back(std::move(p));
  return AEV_OK;
}

bool isValidSettingName(std::string_view n) {
  if (n.empty() || n.size() > 64 || n == "enabled" || n.front() == '.' || n.back() == '.') return false;
  for (char c : n)
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '.')) return false;
  return true;
}

aev_status hostRegisterSetting(aev_registrar* reg, const aev_setting_v1* src) {
  if (!reg || !reg->open || reg->thread != std::this_thread::get_id() || !reg->host) return AEV_ERR_INVALID_ARGUMENT;
  auto refuse = [&](const std::string& what) {
    reg->problems.push_back("setting: " + what);
    return AEV_ERR_INVALID_ARGUMENT;
  };
  if (!src) return refuse("aev_setting_v1 is NULL");
  auto s = readPrefix<aev_setting_v1>(src, declaredSize(src), AEV_SETTING_V1_SIZE_1_1);
  if (!s) return refuse("struct_size is smaller than the ABI 1.1 layout");
  SettingSpec spec;
  auto name = boundedCString(s->name, 64);
  if (!name || !isValidSettingName(*name))
    return refuse("invalid name (expected [a-z0-9_][a-z0-9_.]*, at most 64 bytes, not \"enabled\")");
  spec.name = *name;
  if (s->type < AEV_SETTING_STRING || s->type > AEV_SETTING_LIST)
    return refuse("\"" + spec.name + "\": unknown type " + std::to_string(s->type));
  spec.type = s->type;
  if (s->default_value) {
    auto d = boundedCString(s->default_value, kMaxDescriptionBytes);
    if (!d) return refuse("\"" + spec.name + "\": default is not a NUL-terminated string of at most 1 KiB");
    if (auto problem = settingValueProblem(spec.type, *d); !problem.empty())
      return refuse("\"" + spec.name + "\": default \"" + std::string(*d) + "\" " + problem);
    spec.defaultValue = std::string(*d);
  }
  if (s->description) {
    auto d = boundedCString(s->description, kMaxDescriptionBytes);
    if (!d) return refuse("\"" + spec.name + "\": description is not a NUL-terminated string of at most 1 KiB");
    spec.description = oneLine(*d);
  }
  spec.secret = (s->flags & AEV_SETTING_SECRET) != 0;
  if (reg->host->settings.count(spec.name)) return refuse("\"" + spec.name + "\" declared twice");
  reg->host->settings.emplace(spec.name, std::move(spec));
  return AEV_OK;
}

aev_status hostRegisterDetector(aev_registrar* reg, const aev_detector_v1* vt) {
  return registerComponent(reg, vt, Kind::Detector);
}
aev_status hostRegisterExporter(aev_registrar* reg, const aev_exporter_v1* vt) {
  return registerComponent(reg, vt, Kind::Exporter);
}
aev_status hostRegisterAlertSink(aev_registrar* reg, const aev_alert_sink_v1* vt) {
  return registerComponent(reg, vt, Kind::AlertSink);
}
aev_status hostRegisterDimension(aev_registrar* reg, const aev_dimension_v1* vt) {
  return registerComponent(reg, vt, Kind::Dimension);
}

// ---------------------------------------------------------------- call reporting

void hostCallError(aev_call* call, aev_str message) {
  if (!call || call->thread != std::this_thread::get_id()) return;
  auto m = view(message);
  if (!m) return;
  call->error = oneLine(*m, kMaxErrorBytes);
}

std::uint64_t hostCallDeadlineMs(aev_call* call) {
  if (!call) return 0;
  auto left = call->deadline - std::chrono::steady_clock::now();
  if (left <= std::chrono::steady_clock::duration::zero()) return 0;
  return static_cast<std::uint64_t>(std::chrono::ceil<std::chrono::milliseconds>(left).count());
}

aev_status hostCallAddMatch(aev_call* call, const aev_match* match) {
  if (!usable(call, aev_call::Purpose::Scan)) return AEV_ERR_INVALID_ARGUMENT;
  if (!match) {
    reject(call, "NULL match");
    return AEV_ERR_INVALID_ARGUMENT;
  }
  const std::uint32_t size = declaredSize(match);
  auto m = readPrefix<aev_match>(match, size, AEV_MATCH_SIZE_1_0);
  if (!m) {
    reject(call, "match struct_size " + std::to_string(size) + " is smaller than the ABI 1.0 match (" +
                     std::to_string(AEV_MATCH_SIZE_1_0) + " bytes)");
    return AEV_ERR_INVALID_ARGUMENT;
  }
  match = &*m;
  const auto& text = call->scanText;
  if (match->start >= match->end || match->end > text.size()) {
    reject(call, "offsets [" + std::to_string(match->start) + ", " + std::to_string(match->end) +
                     ") outside the text of " + std::to_string(text.size()) + " bytes");
    return AEV_ERR_INVALID_ARGUMENT;
  }
  if (!isUtf8Boundary(text, match->start) || !isUtf8Boundary(text, match->end)) {
    reject(call, "offsets [" + std::to_string(match->start) + ", " + std::to_string(match->end) +
                     ") split a UTF-8 character");
    return AEV_ERR_INVALID_ARGUMENT;
  }
  if (!std::isfinite(match->score) || match->score < 0.0 || match->score > 1.0) {
    reject(call, "score is not in [0, 1]");
    return AEV_ERR_INVALID_ARGUMENT;
  }
  auto label = view(match->label);
  if (!label || label->size() > kMaxLabelBytes || !isValidUtf8(*label)) {
    reject(call, "label is not valid UTF-8 of at most 128 bytes");
    return AEV_ERR_INVALID_ARGUMENT;
  }
  if (call->findings->size() >= call->maxFindings) {
    reject(call, "more than " + std::to_string(call->maxFindings) + " matches in one scan");
    return AEV_ERR_INVALID_ARGUMENT;
  }
  call->findings->push_back(Finding{static_cast<std::size_t>(match->start), static_cast<std::size_t>(match->end),
                                    match->score, std::string(*label)});
  return AEV_OK;
}

aev_status hostCallSetKey(aev_call* call, aev_str key) {
  if (!usable(call, aev_call::Purpose::Key)) return AEV_ERR_INVALID_ARGUMENT;
  auto k = view(key);
  if (!k || k->size() > kMaxKeyBytes || !isValidUtf8(*k)) {
    reject(call, "key is not valid UTF-8 of at most 1024 bytes");
    return AEV_ERR_INVALID_ARGUMENT;
  }
  *call->key = std::string(*k);
  return AEV_OK;
}

aev_status hostCallResponse(aev_call* call, std::int32_t statusCode, aev_str body) {
  if (!usable(call, aev_call::Purpose::Delivery)) return AEV_ERR_INVALID_ARGUMENT;
  auto b = view(body);
  if (!b || statusCode < 0 || statusCode > 999) return AEV_ERR_INVALID_ARGUMENT;
  std::size_t keep = std::min(b->size(), kMaxResponseBytes);
  while (keep > 0 && keep < b->size() && !isUtf8Boundary(*b, keep)) --keep;  // do not split a character
  call->responseStatus = statusCode;
  call->responseBody.assign(b->data(), keep);
  return AEV_OK;
}

aev_status hostCallRetryAfter(aev_call* call, std::uint64_t milliseconds) {
  if (!usable(call, aev_call::Purpose::Delivery)) return AEV_ERR_INVALID_ARGUMENT;
  call->retryAfter = std::chrono::milliseconds(std::min(milliseconds, kMaxRetryAfterMs));
  return AEV_OK;
}

const aev_host_api kHostApiTable = [] {
  aev_host_api t{};
  t.struct_size = sizeof(aev_host_api);
  t.abi_major = AEV_ABI_MAJOR;
  t.abi_minor = AEV_ABI_MINOR;
  t.log = &hostLog;
  t.log_enabled = &hostLogEnabled;
  t.config_get = &hostConfigGet;
  t.metric_counter = &hostMetricCounter;
  t.metric_add = &hostMetricAdd;
  t.register_detector = &hostRegisterDetector;
  t.register_exporter = &hostRegisterExporter;
  t.register_alert_sink = &hostRegisterAlertSink;
  t.register_dimension = &hostRegisterDimension;
  t.call_error = &hostCallError;
  t.call_deadline_ms = &hostCallDeadlineMs;
  t.call_add_match = &hostCallAddMatch;
  t.call_set_key = &hostCallSetKey;
  t.call_response = &hostCallResponse;
  t.call_retry_after = &hostCallRetryAfter;
  t.register_setting = &hostRegisterSetting;
  return t;
}();

}  // namespace

const aev_host_api* hostApi() { return &kHostApiTable; }

}  // namespace aev::plugins
