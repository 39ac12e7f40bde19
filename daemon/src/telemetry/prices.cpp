#include "telemetry/prices.h"

#include <Poco/JSON/Parser.h>

#include <algorithm>
#include <stdexcept>

#include "telemetry/builtin_prices.h"

namespace aev::telemetry {

PriceTable PriceTable::builtIn() {
  PriceTable t;
  t.overlay(kBuiltinPricesJson, "built-in config/prices.json");
  return t;
}

void PriceTable::overlay(const std::string& jsonText, const std::string& origin) {
  Poco::JSON::Object::Ptr root;
  try {
    root = Poco::JSON::Parser().parse(jsonText).extract<Poco::JSON::Object::Ptr>();
  } catch (const std::exception& e) {
    throw std::invalid_argument(origin + ": not a JSON object: " + e.what());
  }
  auto models = root ? root->getObject("models") : nullptr;
  if (!models) throw std::invalid_argument(origin + ": needs a \"models\" object");
  std::map<std::string, ModelPrice> parsed;
  for (const auto& [name, value] : *models) {
    auto entry = models->getObject(name);
    auto number = [&](const char* field) {
      if (!entry || !entry->has(field) || !entry->get(field).isNumeric())
        throw std::invalid_argument(origin + ": models." + name + "." + field + " must be a number");
      const double v = entry->getValue<double>(field);
      if (!(v >= 0)) throw std::invalid_argument(origin + ": models." + name + "." + field + " must be ≥ 0");
      return v;
    };
    if (name.empty()) throw std::invalid_argument(origin + ": a model name is empty");
    ModelPrice price{number("input"), number("output"), std::nullopt};
    if (entry->has("cachedInput")) price.cachedInputPerMillion = number("cachedInput");
    parsed[name] = price;
  }
  for (auto& [name, price] : parsed) prices_[name] = price;
}

const ModelPrice* PriceTable::find(const std::string& model) const {
  if (model.empty()) return nullptr;
  if (auto it = prices_.find(model); it != prices_.end()) return &it->second;
  const ModelPrice* best = nullptr;
  std::size_t bestLength = 0;
  // Entries that are prefixes of `model` sort at or before it; walk back from there.
  for (auto it = prices_.upper_bound(model); it != prices_.begin();) {
    --it;
    const auto& name = it->first;
    if (name.empty() || name[0] != model[0]) break;
    if (name.size() < model.size() && model.compare(0, name.size(), name) == 0 && name.size() > bestLength) {
      const char next = model[name.size()];
      if (next == '-' || next == '@' || next == ':' || next == '.') {
        best = &it->second;
        bestLength = name.size();
      }
    }
  }
  return best;
}

std::optional<double> PriceTable::cost(const std::string& model, std::int64_t inputTokens, std::int64_t outputTokens,
                                       std::int64_t cachedInputTokens) const {
  const ModelPrice* p = find(model);
  if (!p) return std::nullopt;
  // Cached tokens are part of inputTokens (never more than it): only those priced apart move.
  const auto cached = p->cachedInputPerMillion ? std::clamp<std::int64_t>(cachedInputTokens, 0, inputTokens) : 0;
  return (static_cast<double>(inputTokens - cached) * p->inputPerMillion +
          static_cast<double>(cached) * p->cachedInputPerMillion.value_or(0) +
          static_cast<double>(outputTokens) * p->outputPerMillion) /
         1e6;
}

}  // namespace aev::telemetry
