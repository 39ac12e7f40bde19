// The built-in moderation detectors (docs/features.md#moderation): PII and secrets in agent traffic,
// and prompt-injection heuristics. Each is an aev::Detector; instances are immutable
// after construction, so scans run concurrently without locks.
#pragma once

#include <agentevents/plugin.hpp>

#include <string>
#include <string_view>
#include <vector>

namespace builtin {

// Common configuration: {"minScore": 0.0..1.0} drops findings scored below it.
double readMinScore(std::string_view configJson, double fallback);

class EmailDetector final : public aev::Detector {
 public:
  EmailDetector(const aev::Host& host, std::string_view config);
  std::vector<aev::Match> scan(const aev::ScanInput& in) const override;

 private:
  double minScore_;
};

class PhoneDetector final : public aev::Detector {
 public:
  PhoneDetector(const aev::Host& host, std::string_view config);
  std::vector<aev::Match> scan(const aev::ScanInput& in) const override;

 private:
  double minScore_;
};

class CreditCardDetector final : public aev::Detector {
 public:
  CreditCardDetector(const aev::Host& host, std::string_view config);
  std::vector<aev::Match> scan(const aev::ScanInput& in) const override;

 private:
  double minScore_;
};

class SsnDetector final : public aev::Detector {
 public:
  SsnDetector(const aev::Host& host, std::string_view config);
  std::vector<aev::Match> scan(const aev::ScanInput& in) const override;

 private:
  double minScore_;
};

class ApiKeyDetector final : public aev::Detector {
 public:
  ApiKeyDetector(const aev::Host& host, std::string_view config);
  std::vector<aev::Match> scan(const aev::ScanInput& in) const override;

 private:
  double minScore_;
};

class PromptInjectionDetector final : public aev::Detector {
 public:
  PromptInjectionDetector(const aev::Host& host, std::string_view config);
  std::vector<aev::Match> scan(const aev::ScanInput& in) const override;

 private:
  double minScore_;
};

}  // namespace builtin
