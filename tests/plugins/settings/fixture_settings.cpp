// A plugin that declares typed settings (ABI 1.1) with the SDK: the host refuses an
// undeclared plugins.fixture_settings.* key or an ill-typed value, and answers an unset
// key with its default. Lives in its own directory (not fixtures/).
#include <agentevents/plugin.hpp>

#include <string>

namespace {

class EchoDimension final : public aev::Dimension {
 public:
  EchoDimension(const aev::Host& host, std::string_view)
      : limit_(host.configInt("limit", -1)),
        interval_(host.configDuration("interval", std::chrono::milliseconds(-1))),
        ratio_(host.configNumber("ratio", -1)),
        tags_(host.configList("tags")) {}
  // "limit=10 interval=5000 ratio=0.25 tags=a|b": what the plugin read, for the tests.
  std::optional<std::string> key(const aev::KeyInput&) const override {
    std::string tags;
    for (const auto& t : tags_) tags += (tags.empty() ? "" : "|") + t;
    return "limit=" + std::to_string(limit_) + " interval=" + std::to_string(interval_.count()) +
           " ratio=" + std::to_string(ratio_).substr(0, 4) + " tags=" + tags;
  }

 private:
  std::int64_t limit_;
  std::chrono::milliseconds interval_;
  double ratio_;
  std::vector<std::string> tags_;
};

}  // namespace

AEV_PLUGIN("fixture_settings", "1.1.0", "tests", aev::setting("limit", aev::SettingType::Integer, "10", "how many"),
           aev::setting("interval", aev::SettingType::Duration, "5s", "how often"),
           aev::setting("ratio", aev::SettingType::Number, "0.25", "how much"),
           aev::setting("tags", aev::SettingType::List, "a, b", "which"),
           aev::setting("token", aev::SettingType::String, nullptr, "a credential", true),
           aev::dimension<EchoDimension>("fixture.settings", "echoes its settings"))
