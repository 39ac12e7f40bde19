#pragma once
// Model prices (USD per million input/output tokens) for events that report token usage
// but no cost_usd (docs/features.md#telemetry-fields). The table of config/prices.json is built into the
// binary; telemetry.prices_file lays an operator's file over it, entry by entry.
#include <map>
#include <optional>
#include <string>

namespace aev::telemetry {

struct ModelPrice {
  double inputPerMillion = 0;
  double outputPerMillion = 0;
  // The price of input tokens read from the provider's prompt cache, when the entry names
  // one ("cachedInput"); without it cached tokens cost what other input tokens cost.
  std::optional<double> cachedInputPerMillion;
};

class PriceTable {
 public:
  static PriceTable builtIn();
  // {"models": {"<name>": {"input": n, "output": n, "cachedInput": n}}} ("cachedInput"
  // optional); throws std::invalid_argument
  // naming the bad entry, so a broken file stops start-up with a clear message.
  void overlay(const std::string& jsonText, const std::string& origin);

  // Exact name, else the longest entry the name starts with, followed by one of "-@:."
  // (dated or tagged variants: gpt-4o-2024-08-06 → gpt-4o).
  const ModelPrice* find(const std::string& model) const;
  // `cachedInputTokens` (a subset of inputTokens) are billed at the entry's cachedInput
  // price when it has one.
  std::optional<double> cost(const std::string& model, std::int64_t inputTokens, std::int64_t outputTokens,
                             std::int64_t cachedInputTokens = 0) const;
  std::size_t size() const { return prices_.size(); }

 private:
  std::map<std::string, ModelPrice> prices_;
};

}  // namespace aev::telemetry
