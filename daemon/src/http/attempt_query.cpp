#include "http/attempt_query.h"

#include "http/body.h"

namespace aev::http {

namespace {

const std::vector<std::string> kOutcomes = {"delivered", "retrying", "failed"};
const std::vector<std::string> kStatusClasses = {"2xx", "3xx", "4xx", "5xx", "none"};

}  // namespace

AttemptQuery attemptQuery(const Request& req) {
  AttemptQuery q;
  q.limit = queryInt(req.queryFilter("limit"), "limit", 50, 1, 200);
  q.filter.outcome = queryChoice(req.queryFilter("outcome"), "outcome", kOutcomes);
  if (auto cls = queryChoice(req.queryFilter("statusClass"), "statusClass", kStatusClasses))
    q.filter.statusClass = *cls == "none" ? 0 : (*cls)[0] - '0';
  return q;
}

std::vector<ops::QueryParamDoc> attemptQueryDocs() {
  return {{"limit", "integer", "1..200, default 50", {}, false},
          {"outcome", "string", "only attempts with this outcome", kOutcomes, false},
          {"statusClass", "string", "only answers of this class (none: no HTTP answer, statusCode 0)", kStatusClasses,
           false}};
}

}  // namespace aev::http
