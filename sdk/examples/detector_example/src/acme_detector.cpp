// An example detector: finds ACME customer numbers ("ACME-" followed by 8 digits) so a
// moderation rule can redact or block them. The prefix is a plugin setting
// (plugins.detector_example.prefix in the daemon's configuration); the number of digits
// is per rule ({"digits": 8}).
#include <agentevents/json.hpp>
#include <agentevents/plugin.hpp>

#include <string>

namespace {

class CustomerNumberDetector final : public aev::Detector {
 public:
  // Runs when a moderation rule using this detector is created. Throwing
  // aev::ConfigError refuses the rule's configuration with that message.
  CustomerNumberDetector(const aev::Host& host, std::string_view config)
      : prefix_(host.configOr("prefix", "ACME") + "-") {
    auto cfg = aev::json::parse(config);
    if (const auto* d = cfg.find("digits")) {
      if (!d->isInteger() || d->asInt() < 4 || d->asInt() > 16) throw aev::ConfigError("digits must be 4..16");
      digits_ = static_cast<std::size_t>(d->asInt());
    }
  }

  // Called from many threads at once: only reads members.
  std::vector<aev::Match> scan(const aev::ScanInput& in) const override {
    std::vector<aev::Match> out;
    std::string_view text = in.text;
    for (auto at = text.find(prefix_); at != std::string_view::npos; at = text.find(prefix_, at + 1)) {
      std::size_t end = at + prefix_.size();
      std::size_t n = 0;
      while (end < text.size() && text[end] >= '0' && text[end] <= '9') ++end, ++n;
      if (n == digits_) out.push_back({at, end, 0.9, "customer_number"});
    }
    return out;
  }

 private:
  std::string prefix_;
  std::size_t digits_ = 8;
};

}  // namespace

// The per-rule configuration (a moderation rule's detectorConfig), as GET /admin/plugins
// and the console show it.
constexpr const char* kRuleSchema = R"({
  "type": "object",
  "properties": {"digits": {"type": "integer", "minimum": 4, "maximum": 16, "default": 8}}
})";

AEV_PLUGIN("detector_example", "1.0.0", "Example Corp",
           aev::setting("prefix", aev::SettingType::String, "ACME", "what a customer number starts with"),
           aev::detector<CustomerNumberDetector>("acme.customer_number", "ACME customer numbers", AEV_TARGET_ALL,
                                                 kRuleSchema))
