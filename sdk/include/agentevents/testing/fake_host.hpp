// A fake agent-eventsd for plugin unit tests: implements the host table in-process, calls
// the plugin's entry points directly (link the plugin's sources into the test binary),
// and records logs, counters and call reports. No daemon, no dlopen.
//
//   aev::testing::FakeHost host;
//   host.settings["prefix"] = "ACME";            // plugins.<plugin>.prefix
//   ASSERT_EQ(host.load(), AEV_OK);
//   auto det = host.detector("acme.customer_number");
//   auto out = det.scan("order for ACME-12345678");
//   EXPECT_EQ(out.matches.size(), 1u);
//
// It checks what the real host checks (offsets inside the text and on UTF-8 boundaries,
// scores in [0, 1], vtable fields), so a plugin that passes here behaves under the daemon.
// One plugin per test binary: the entry points are ordinary linked symbols.
// Do not include it in a binary that also links the daemon's plugin host.
#pragma once

#include <agentevents/plugin_abi.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

struct aev_host {
  class aev_testing_fake_host* owner;
};
struct aev_registrar {
  class aev_testing_fake_host* owner;
};
struct aev_call {
  int purpose;  // 0 other, 1 scan, 2 key, 3 delivery
  std::string_view text;
  std::vector<std::pair<aev_match, std::string>> matches;  // match + owned label
  std::size_t rejected = 0;
  std::optional<std::string> key;
  int status = 0;
  std::string body;
  std::uint64_t retryAfterMs = 0;
  std::string error;
  std::uint64_t deadlineMs = 10000;
};

namespace aev::testing {

struct Match {
  std::size_t start, end;
  double score;
  std::string label;
};

struct ScanOutcome {
  aev_status status = AEV_OK;
  std::vector<Match> matches;
  std::size_t rejected = 0;  // matches the real host would refuse
  std::string error;
};

struct DeliveryOutcome {
  aev_status status = AEV_OK;
  int responseStatus = 0;
  std::string responseBody;
  std::uint64_t retryAfterMs = 0;
  std::string error;
};

struct KeyOutcome {
  aev_status status = AEV_OK;
  std::optional<std::string> key;
  std::string error;
};

}  // namespace aev::testing

// The fake host itself (global name: the C handles above refer to it).
class aev_testing_fake_host {
 public:
  // plugins.<plugin>.<key> settings, by <key>.
  std::map<std::string, std::string> settings;
  // Settings the plugin declared (ABI 1.1): name → default ("" when none).
  std::map<std::string, std::string> declared;
  std::vector<std::pair<aev_log_level, std::string>> logs;
  std::map<std::string, std::int64_t> counters;
  std::string registerError;

  aev_testing_fake_host() : host_{this}, registrar_{this} {
    api_.struct_size = sizeof api_;
    api_.abi_major = AEV_ABI_MAJOR;
    api_.abi_minor = AEV_ABI_MINOR;
    api_.log = [](aev_host* h, aev_log_level l, aev_str m) { h->owner->logs.emplace_back(l, str(m)); };
    api_.log_enabled = [](aev_host*, aev_log_level) { return true; };
    api_.config_get = [](aev_host* h, aev_str k, aev_str* v) -> aev_status {
      const std::map<std::string, std::string>* from = &h->owner->settings;
      auto it = from->find(str(k));
      if (it == from->end()) {
        from = &h->owner->defaults_;  // a declared default
        it = from->find(str(k));
      }
      if (it == from->end()) return AEV_ERR_NOT_FOUND;
      *v = aev_str{it->second.data(), it->second.size()};
      return AEV_OK;
    };
    api_.metric_counter = [](aev_host* h, aev_str name, aev_str) -> std::uint64_t {
      auto& names = h->owner->counterNames_;
      for (std::size_t i = 0; i < names.size(); ++i)
        if (names[i] == str(name)) return i + 1;
      names.push_back(str(name));
      h->owner->counters[names.back()] = 0;
      return names.size();
    };
    api_.metric_add = [](aev_host* h, std::uint64_t c, std::int64_t d) {
      if (c >= 1 && c <= h->owner->counterNames_.size()) h->owner->counters[h->owner->counterNames_[c - 1]] += d;
    };
    api_.register_detector = [](aev_registrar* r, const aev_detector_v1* v) {
      return r->owner->add(r->owner->detectors_, v, v && v->create && v->destroy && v->scan);
    };
    api_.register_exporter = [](aev_registrar* r, const aev_exporter_v1* v) {
      return r->owner->add(r->owner->exporters_, v, v && v->open && v->export_batch && v->close && v->signals);
    };
    api_.register_alert_sink = [](aev_registrar* r, const aev_alert_sink_v1* v) {
      return r->owner->add(r->owner->alertSinks_, v, v && v->open && v->deliver && v->close);
    };
    api_.register_dimension = [](aev_registrar* r, const aev_dimension_v1* v) {
      return r->owner->add(r->owner->dimensions_, v, v && v->key && (!v->create || v->destroy));
    };
    api_.register_setting = [](aev_registrar* r, const aev_setting_v1* s) -> aev_status {
      if (!s || s->struct_size < AEV_SETTING_V1_SIZE_1_1 || !s->name || !*s->name) return AEV_ERR_INVALID_ARGUMENT;
      r->owner->declared[s->name] = s->default_value ? s->default_value : "";
      if (s->default_value) r->owner->defaults_[s->name] = s->default_value;
      return AEV_OK;
    };
    api_.call_error = [](aev_call* c, aev_str m) { c->error = str(m); };
    api_.call_deadline_ms = [](aev_call* c) { return c->deadlineMs; };
    api_.call_add_match = [](aev_call* c, const aev_match* m) -> aev_status {
      if (c->purpose != 1 || !m || m->struct_size < AEV_MATCH_SIZE_1_0 || m->start >= m->end ||
          m->end > c->text.size() || !boundary(c->text, m->start) || !boundary(c->text, m->end) ||
          !std::isfinite(m->score) || m->score < 0 || m->score > 1 || (m->label.len && !m->label.ptr)) {
        ++c->rejected;
        return AEV_ERR_INVALID_ARGUMENT;
      }
      c->matches.emplace_back(*m, str(m->label));
      return AEV_OK;
    };
    api_.call_set_key = [](aev_call* c, aev_str k) -> aev_status {
      if (c->purpose != 2 || (k.len && !k.ptr) || k.len > 1024) return AEV_ERR_INVALID_ARGUMENT;
      c->key = str(k);
      return AEV_OK;
    };
    api_.call_response = [](aev_call* c, std::int32_t s, aev_str b) -> aev_status {
      if (c->purpose != 3) return AEV_ERR_INVALID_ARGUMENT;
      c->status = s;
      c->body = str(b).substr(0, 4096);
      return AEV_OK;
    };
    api_.call_retry_after = [](aev_call* c, std::uint64_t ms) -> aev_status {
      if (c->purpose != 3) return AEV_ERR_INVALID_ARGUMENT;
      c->retryAfterMs = ms;
      return AEV_OK;
    };
  }
  aev_testing_fake_host(const aev_testing_fake_host&) = delete;
  aev_testing_fake_host& operator=(const aev_testing_fake_host&) = delete;

  // Runs the handshake and registration of the plugin linked into this binary.
  aev_status load() {
    const aev_plugin_manifest* m = aev_plugin_manifest_v1();
    if (!m || m->magic != AEV_PLUGIN_MAGIC || m->abi_major != AEV_ABI_MAJOR || m->abi_minor > AEV_ABI_MINOR)
      return AEV_ERR_UNSUPPORTED;
    aev_call call{};
    aev_status s = aev_plugin_register_v1(&api_, &host_, &registrar_, &call);
    registerError = call.error;
    if (s == AEV_OK && !problems_.empty()) {
      registerError = problems_;
      return AEV_ERR_INVALID_ARGUMENT;
    }
    return s;
  }
  const aev_plugin_manifest& manifest() const { return *aev_plugin_manifest_v1(); }

  // ---------------------------------------------------------------- instances

  template <class VT, class Close>
  class Instance {
   public:
    Instance(aev_testing_fake_host* host, VT vt, void* handle, Close close)
        : host_(host), vt_(vt), handle_(handle, close) {}
    const VT& vtable() const { return vt_; }

   protected:
    aev_testing_fake_host* host_;
    VT vt_;
    std::shared_ptr<void> handle_;
  };

  class Detector : public Instance<aev_detector_v1, void (*)(void*)> {
   public:
    using Instance::Instance;
    aev::testing::ScanOutcome scan(std::string_view text, aev_target target = AEV_TARGET_REQUEST) const {
      aev_call call{};
      call.purpose = 1;
      call.text = text;
      aev_scan_input in{};
      in.struct_size = sizeof in;
      in.target = target;
      in.text = aev_str{text.data(), text.size()};
      aev::testing::ScanOutcome out;
      out.status = vt_.scan(handle_.get(), &in, &call);
      out.error = call.error;
      out.rejected = call.rejected;
      for (const auto& [m, label] : call.matches) out.matches.push_back({m.start, m.end, m.score, label});
      return out;
    }
  };

  class Exporter : public Instance<aev_exporter_v1, void (*)(void*)> {
   public:
    using Instance::Instance;
    aev::testing::DeliveryOutcome exportBatch(aev_signal signal, std::string_view eventsJson, std::uint64_t count) {
      aev_call call{};
      call.purpose = 3;
      aev_export_input in{};
      in.struct_size = sizeof in;
      in.signal = signal;
      in.events_json = aev_str{eventsJson.data(), eventsJson.size()};
      in.event_count = count;
      aev_status s = vt_.export_batch(handle_.get(), &in, &call);
      return {s, call.status, call.body, call.retryAfterMs, call.error};
    }
  };

  class AlertSink : public Instance<aev_alert_sink_v1, void (*)(void*)> {
   public:
    using Instance::Instance;
    aev::testing::DeliveryOutcome deliver(std::string_view alertJson) {
      aev_call call{};
      call.purpose = 3;
      aev_status s = vt_.deliver(handle_.get(), aev_str{alertJson.data(), alertJson.size()}, &call);
      return {s, call.status, call.body, call.retryAfterMs, call.error};
    }
  };

  class Dimension : public Instance<aev_dimension_v1, void (*)(void*)> {
   public:
    using Instance::Instance;
    aev::testing::KeyOutcome key(std::string_view eventJson, std::string_view parameter = {}) const {
      aev_call call{};
      call.purpose = 2;
      aev_key_input in{};
      in.struct_size = sizeof in;
      in.event_json = aev_str{eventJson.data(), eventJson.size()};
      in.parameter = aev_str{parameter.data(), parameter.size()};
      aev_status s = vt_.key(handle_.get(), &in, &call);
      return {s, call.key, call.error};
    }
  };

  // Throw std::runtime_error (with the plugin's message) when create/open fails.
  Detector detector(const std::string& name, std::string_view config = "{}") {
    auto vt = find(detectors_, name);
    return Detector(this, vt, construct(vt, vt.create, config), vt.destroy);
  }
  Exporter exporter(const std::string& name, std::string_view config = "{}") {
    auto vt = find(exporters_, name);
    return Exporter(this, vt, construct(vt, vt.open, config), vt.close);
  }
  AlertSink alertSink(const std::string& name, std::string_view config = "{}") {
    auto vt = find(alertSinks_, name);
    return AlertSink(this, vt, construct(vt, vt.open, config), vt.close);
  }
  Dimension dimension(const std::string& name, std::string_view config = "{}") {
    auto vt = find(dimensions_, name);
    void* handle = vt.create ? construct(vt, vt.create, config) : nullptr;
    return Dimension(this, vt, handle, vt.destroy ? vt.destroy : +[](void*) {});
  }

  std::vector<std::string> detectorNames() const { return names(detectors_); }
  std::vector<std::string> exporterNames() const { return names(exporters_); }
  std::vector<std::string> alertSinkNames() const { return names(alertSinks_); }
  std::vector<std::string> dimensionNames() const { return names(dimensions_); }

 private:
  static std::string str(aev_str s) { return s.len ? std::string(s.ptr, s.len) : std::string(); }
  static bool boundary(std::string_view t, std::uint64_t i) {
    return i == 0 || i == t.size() || (i < t.size() && (static_cast<unsigned char>(t[i]) & 0xC0) != 0x80);
  }

  // The host accepts any vtable from its 1.0 size upward, as the daemon does.
  static std::size_t minimumSize(const aev_detector_v1*) { return AEV_DETECTOR_V1_SIZE_1_0; }
  static std::size_t minimumSize(const aev_exporter_v1*) { return AEV_EXPORTER_V1_SIZE_1_0; }
  static std::size_t minimumSize(const aev_alert_sink_v1*) { return AEV_ALERT_SINK_V1_SIZE_1_0; }
  static std::size_t minimumSize(const aev_dimension_v1*) { return AEV_DIMENSION_V1_SIZE_1_0; }

  template <class VT>
  aev_status add(std::vector<std::pair<std::string, VT>>& list, const VT* v, bool complete) {
    if (!v || v->struct_size < minimumSize(v) || !v->name || !complete) {
      problems_ += "invalid vtable; ";
      return AEV_ERR_INVALID_ARGUMENT;
    }
    for (const auto& e : list)
      if (e.first == v->name) {
        problems_ += std::string("duplicate name ") + v->name + "; ";
        return AEV_ERR_INVALID_ARGUMENT;
      }
    list.emplace_back(v->name, *v);  // look-ups use the copied name, not v->name
    return AEV_OK;
  }
  template <class VT>
  VT find(const std::vector<std::pair<std::string, VT>>& list, const std::string& name) const {
    for (const auto& e : list)
      if (e.first == name) return e.second;
    throw std::runtime_error("plugin registered no component named " + name);
  }
  template <class VT, class Fn>
  void* construct(const VT& vt, Fn fn, std::string_view config) {
    aev_call call{};
    void* handle = nullptr;
    aev_status s = fn(vt.component_data, &host_, aev_str{config.data(), config.size()}, &handle, &call);
    if (s != AEV_OK) throw std::runtime_error("create failed (status " + std::to_string(s) + "): " + call.error);
    return handle;
  }
  template <class VT>
  static std::vector<std::string> names(const std::vector<std::pair<std::string, VT>>& list) {
    std::vector<std::string> out;
    for (const auto& e : list) out.push_back(e.first);
    return out;
  }

  aev_host_api api_{};
  std::map<std::string, std::string> defaults_;
  aev_host host_;
  aev_registrar registrar_;
  std::vector<std::string> counterNames_;
  std::string problems_;
  std::vector<std::pair<std::string, aev_detector_v1>> detectors_;
  std::vector<std::pair<std::string, aev_exporter_v1>> exporters_;
  std::vector<std::pair<std::string, aev_alert_sink_v1>> alertSinks_;
  std::vector<std::pair<std::string, aev_dimension_v1>> dimensions_;
};

namespace aev::testing {
using FakeHost = ::aev_testing_fake_host;
}  // namespace aev::testing
