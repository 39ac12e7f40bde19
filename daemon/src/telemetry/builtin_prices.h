#pragma once
// config/prices.json, embedded at build time (telemetry/builtin_prices.cpp.in).
namespace aev::telemetry {
extern const char* const kBuiltinPricesJson;
}
