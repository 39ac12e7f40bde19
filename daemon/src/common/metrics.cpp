#include "common/metrics.h"

#include <set>
#include <sstream>

namespace aev {

Metrics& Metrics::instance() {
  static Metrics m;
  return m;
}

std::atomic<std::int64_t>& Metrics::counter(const std::string& name, const std::string& help) {
  std::lock_guard lock(mutex_);
  auto& slot = entries_[name];
  if (!slot) slot = std::make_unique<Entry>();
  if (!help.empty() && slot->help.empty()) slot->help = help;
  return slot->value;
}

std::string Metrics::renderPrometheus() const {
  std::lock_guard lock(mutex_);
  std::ostringstream out;
  std::set<std::string> described;
  for (const auto& [name, entry] : entries_) {
    auto family = name.substr(0, name.find('{'));
    if (described.insert(family).second) {
      if (!entry->help.empty()) out << "# HELP " << family << ' ' << entry->help << '\n';
      out << "# TYPE " << family << (family.size() > 6 && family.ends_with("_total") ? " counter" : " gauge") << '\n';
    }
    out << name << ' ' << entry->value.load(std::memory_order_relaxed) << '\n';
  }
  return out.str();
}

}  // namespace aev
