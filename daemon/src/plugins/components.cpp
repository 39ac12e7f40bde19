#include "plugins/components.h"

#include <exception>

#include "plugins/crash_marker.h"
#include "plugins/validation.h"

namespace aev::plugins {

namespace {

using Clock = std::chrono::steady_clock;

bool knownStatus(aev_status s) { return s >= AEV_OK && s <= AEV_ERR_NOT_FOUND; }

// Runs one call into plugin code. Whatever the plugin does short of crashing the
// process, this returns a status: exceptions that escape a plugin written without the
// SDK's C++ layer are caught here, and a status outside the enum becomes AEV_ERR_INTERNAL.
template <class Fn>
aev_status invoke(const ComponentBase& component, aev_call& call, std::string_view operation,
                  std::chrono::nanoseconds& elapsed, Fn&& fn) noexcept {
  auto started = Clock::now();
  aev_status status;
  bool threw = false;
  try {
    CallScope marked(component.info(), operation);
    status = fn();
  } catch (const std::exception& e) {
    threw = true;
    status = AEV_ERR_INTERNAL;
    call.error = oneLine(std::string("exception escaped the plugin: ") + e.what());
  } catch (...) {
    threw = true;
    status = AEV_ERR_INTERNAL;
    call.error = "exception of unknown type escaped the plugin";
  }
  elapsed = Clock::now() - started;

  auto& stats = component.stats();
  if (threw) stats.exception();
  if (!threw && !knownStatus(status)) {
    stats.invalidOutput();
    call.error = "returned unknown status " + std::to_string(status) + (call.error.empty() ? "" : ": " + call.error);
    status = AEV_ERR_INTERNAL;
  }
  stats.record(status != AEV_OK, elapsed);
  if (status != AEV_OK) {
    stats.logFailure(std::string(operation) + " failed (" + std::string(statusName(status)) + ")" +
                     (call.error.empty() ? "" : ": " + call.error));
  }
  return status;
}

// Instance teardown must not throw into the host either (a destructor in flight).
template <class Fn>
void invokeTeardown(const ComponentBase& component, Fn&& fn) noexcept {
  try {
    CallScope marked(component.info(), "destroy");
    fn();
  } catch (...) {
    component.stats().exception();
    component.stats().logFailure("exception escaped while destroying an instance");
  }
}

// Shared by create/open of every kind: returns the instance handle or throws PluginError.
template <class Fn>
void* construct(const ComponentBase& component, std::string_view configJson, const CallLimits& limits, Fn&& fn) {
  aev_call call(aev_call::Purpose::Create, limits.createBudget);
  void* handle = nullptr;
  std::chrono::nanoseconds elapsed{};
  if (configJson.empty()) configJson = "{}";
  aev_str config{configJson.data(), configJson.size()};
  aev_status status = invoke(component, call, "create", elapsed, [&] { return fn(config, &handle, &call); });
  if (status != AEV_OK) {
    const auto& info = component.info();
    throw PluginError(status, std::string(kindName(info.kind)) + " \"" + info.name + "\" of plugin " + info.plugin +
                                  " refused its configuration" + (call.error.empty() ? "" : ": " + call.error));
  }
  return handle;
}

void fillDelivery(DeliveryResult& r, const aev_call& call, aev_status status, std::chrono::nanoseconds elapsed) {
  r.status = status;
  r.responseStatus = call.responseStatus;
  r.responseBody = call.responseBody;
  r.retryAfter = status == AEV_RETRY ? call.retryAfter : std::nullopt;
  r.error = call.error;
  r.elapsed = elapsed;
}

}  // namespace

// ---------------------------------------------------------------- detectors

std::shared_ptr<DetectorInstance> DetectorComponent::create(std::string_view configJson) const {
  void* handle = construct(*this, configJson, limits_, [&](aev_str config, void** out, aev_call* call) {
    return vt_.create(vt_.component_data, host_, config, out, call);
  });
  return std::make_shared<DetectorInstance>(shared_from_this(), handle);
}

DetectorInstance::~DetectorInstance() {
  const auto& c = *component_;
  invokeTeardown(c, [&] { c.vt_.destroy(handle_); });
}

ScanResult DetectorInstance::scan(std::string_view text, aev_target target, std::string_view eventType,
                                  std::string_view fieldPath) const {
  const auto& c = *component_;
  ScanResult result;
  aev_call call(aev_call::Purpose::Scan, c.limits_.scanBudget);
  call.scanText = text;
  call.findings = &result.findings;
  call.maxFindings = c.limits_.maxFindingsPerScan;

  aev_scan_input input{};
  input.struct_size = sizeof input;
  input.target = target;
  input.text = aev_str{text.data(), text.size()};
  input.event_type = aev_str{eventType.data(), eventType.size()};
  input.field_path = aev_str{fieldPath.data(), fieldPath.size()};

  result.status = invoke(c, call, "scan", result.elapsed, [&] { return c.vt_.scan(handle_, &input, &call); });
  result.error = call.error;
  result.rejectedFindings = call.rejected;
  if (call.rejected) {
    c.stats().invalidOutput(call.rejected);
    c.stats().logFailure("reported " + std::to_string(call.rejected) + " invalid match(es), dropped: " +
                         call.firstRejection);
  }
  // A failed scan's partial findings are not trustworthy.
  if (!result.ok()) result.findings.clear();
  return result;
}

// ---------------------------------------------------------------- exporters

std::shared_ptr<ExporterInstance> ExporterComponent::open(std::string_view configJson) const {
  void* handle = construct(*this, configJson, limits_, [&](aev_str config, void** out, aev_call* call) {
    return vt_.open(vt_.component_data, host_, config, out, call);
  });
  return std::make_shared<ExporterInstance>(shared_from_this(), handle);
}

ExporterInstance::~ExporterInstance() {
  const auto& c = *component_;
  invokeTeardown(c, [&] { c.vt_.close(handle_); });
}

DeliveryResult ExporterInstance::exportBatch(aev_signal signal, std::string_view eventsJson, std::uint64_t eventCount,
                                             std::optional<std::chrono::milliseconds> timeout) {
  const auto& c = *component_;
  DeliveryResult result;
  if (!c.supportsSignal(signal)) {
    result.status = AEV_ERR_UNSUPPORTED;
    result.error = "exporter \"" + c.info().name + "\" does not ship signal " + std::to_string(signal);
    return result;
  }
  std::unique_lock<std::mutex> serial(serial_, std::defer_lock);
  if (!(c.info().flags & AEV_FLAG_CONCURRENT)) serial.lock();

  aev_call call(aev_call::Purpose::Delivery, timeout.value_or(c.limits_.exportTimeout));
  aev_export_input input{};
  input.struct_size = sizeof input;
  input.signal = signal;
  input.events_json = aev_str{eventsJson.data(), eventsJson.size()};
  input.event_count = eventCount;
  std::chrono::nanoseconds elapsed{};
  aev_status status = invoke(c, call, "export", elapsed, [&] { return c.vt_.export_batch(handle_, &input, &call); });
  fillDelivery(result, call, status, elapsed);
  return result;
}

// ---------------------------------------------------------------- alert sinks

std::shared_ptr<AlertSinkInstance> AlertSinkComponent::open(std::string_view configJson) const {
  void* handle = construct(*this, configJson, limits_, [&](aev_str config, void** out, aev_call* call) {
    return vt_.open(vt_.component_data, host_, config, out, call);
  });
  return std::make_shared<AlertSinkInstance>(shared_from_this(), handle);
}

AlertSinkInstance::~AlertSinkInstance() {
  const auto& c = *component_;
  invokeTeardown(c, [&] { c.vt_.close(handle_); });
}

DeliveryResult AlertSinkInstance::deliver(std::string_view alertJson, std::optional<std::chrono::milliseconds> timeout) {
  const auto& c = *component_;
  std::unique_lock<std::mutex> serial(serial_, std::defer_lock);
  if (!(c.info().flags & AEV_FLAG_CONCURRENT)) serial.lock();

  DeliveryResult result;
  aev_call call(aev_call::Purpose::Delivery, timeout.value_or(c.limits_.alertTimeout));
  std::chrono::nanoseconds elapsed{};
  aev_str alert{alertJson.data(), alertJson.size()};
  aev_status status = invoke(c, call, "deliver", elapsed, [&] { return c.vt_.deliver(handle_, alert, &call); });
  fillDelivery(result, call, status, elapsed);
  return result;
}

// ---------------------------------------------------------------- dimensions

std::shared_ptr<DimensionInstance> DimensionComponent::create(std::string_view configJson) const {
  void* handle = nullptr;
  if (vt_.create) {
    handle = construct(*this, configJson, limits_, [&](aev_str config, void** out, aev_call* call) {
      return vt_.create(vt_.component_data, host_, config, out, call);
    });
  }
  return std::make_shared<DimensionInstance>(shared_from_this(), handle);
}

DimensionInstance::~DimensionInstance() {
  const auto& c = *component_;
  if (c.vt_.destroy) invokeTeardown(c, [&] { c.vt_.destroy(handle_); });
}

KeyResult DimensionInstance::key(std::string_view eventJson, std::string_view parameter) const {
  const auto& c = *component_;
  KeyResult result;
  aev_call call(aev_call::Purpose::Key, c.limits_.keyBudget);
  call.key = &result.key;
  aev_key_input input{};
  input.struct_size = sizeof input;
  input.event_json = aev_str{eventJson.data(), eventJson.size()};
  input.parameter = aev_str{parameter.data(), parameter.size()};
  std::chrono::nanoseconds elapsed{};
  result.status = invoke(c, call, "key", elapsed, [&] { return c.vt_.key(handle_, &input, &call); });
  result.error = call.error;
  if (call.rejected) {
    c.stats().invalidOutput(call.rejected);
    c.stats().logFailure("set an invalid key, dropped: " + call.firstRejection);
  }
  if (!result.ok()) result.key.reset();
  return result;
}

}  // namespace aev::plugins
