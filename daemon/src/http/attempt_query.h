#pragma once
// The query of a delivery-attempt listing (GET /webhooks/deliveries/{endpointId} and
// GET /export-destinations/{id}/deliveries): limit, outcome and statusClass, read and
// documented in one place so both listings take the same filters.
#include <cstdint>
#include <vector>

#include "http/request.h"
#include "ops/schemas.h"
#include "store/outbox_repository.h"

namespace aev::http {

struct AttemptQuery {
  std::int64_t limit = 50;
  store::AttemptFilter filter;
};

// 422 for a limit outside 1..200, an unknown outcome or a status class other than
// 2xx, 3xx, 4xx, 5xx or none (no HTTP answer).
AttemptQuery attemptQuery(const Request& req);
std::vector<ops::QueryParamDoc> attemptQueryDocs();

}  // namespace aev::http
