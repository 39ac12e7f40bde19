#include "common/metrics.h"

#include <cstdio>
#include <sstream>

namespace aev {

namespace {

// HELP text escapes backslash and newline (the Prometheus text format).
std::string escapedHelp(const std::string& help) {
  std::string out;
  for (char c : help) {
    if (c == '\\')
      out += "\\\\";
    else if (c == '\n')
      out += "\\n";
    else
      out += c;
  }
  return out;
}

std::string rendered(std::int64_t value, double scale) {
  if (scale == 1.0) return std::to_string(value);
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.9g", static_cast<double>(value) * scale);
  return buf;
}

}  // namespace

Metrics& Metrics::instance() {
  static Metrics m;
  return m;
}

Metrics::Metrics() {
  for (const auto& doc : documentedMetrics()) {
    auto& family = families_[doc.family];
    family.help = doc.help;
    family.scale = doc.scale;
    for (const auto& labels : doc.labelSets) family.samples[labels] = std::make_unique<std::atomic<std::int64_t>>(0);
  }
}

std::atomic<std::int64_t>& Metrics::counter(const std::string& name, const std::string& help, double scale) {
  const auto brace = name.find('{');
  const std::string familyName = name.substr(0, brace);
  const std::string labels = brace == std::string::npos ? "" : name.substr(brace);
  std::lock_guard lock(mutex_);
  auto [it, created] = families_.try_emplace(familyName);
  auto& family = it->second;
  if (created) family.scale = scale;
  if (!help.empty() && family.help.empty()) family.help = help;
  auto& slot = family.samples[labels];
  if (!slot) slot = std::make_unique<std::atomic<std::int64_t>>(0);
  return *slot;
}

std::string Metrics::renderPrometheus() const {
  std::lock_guard lock(mutex_);
  std::ostringstream out;
  for (const auto& [name, family] : families_) {
    if (family.samples.empty()) continue;
    const bool counter = name.size() > 6 && name.ends_with("_total");
    out << "# HELP " << name << ' '
        << escapedHelp(family.help.empty() ? "agent-events " + std::string(counter ? "counter" : "gauge") + " " + name
                                           : family.help)
        << '\n';
    out << "# TYPE " << name << (counter ? " counter" : " gauge") << '\n';
    for (const auto& [labels, value] : family.samples)
      out << name << labels << ' ' << rendered(value->load(std::memory_order_relaxed), family.scale) << '\n';
  }
  return out.str();
}

}  // namespace aev
