#include "http/attempt_query.h"

#include <algorithm>

#include "common/errors.h"
#include "http/body.h"

namespace aev::http {

namespace {

const std::vector<std::string> kOutcomes = {"delivered", "retrying", "failed"};
const std::vector<std::string> kStatusClasses = {"2xx", "3xx", "4xx", "5xx", "none"};

std::string listOf(const std::vector<std::string>& names) {
  std::string out;
  for (const auto& n : names) out += (out.empty() ? "" : ", ") + n;
  return out;
}

}  // namespace

AttemptQuery attemptQuery(const Request& req) {
  AttemptQuery q;
  q.limit = queryInt(req.queryFilter("limit"), "limit", 50, 1, 200);
  if (auto outcome = req.queryFilter("outcome")) {
    if (std::find(kOutcomes.begin(), kOutcomes.end(), *outcome) == kOutcomes.end())
      throw errors::invalidField("query.outcome", "must be one of " + listOf(kOutcomes), outcome->substr(0, 200));
    q.filter.outcome = *outcome;
  }
  if (auto cls = req.queryFilter("statusClass")) {
    if (std::find(kStatusClasses.begin(), kStatusClasses.end(), *cls) == kStatusClasses.end())
      throw errors::invalidField("query.statusClass", "must be one of " + listOf(kStatusClasses), cls->substr(0, 200));
    q.filter.statusClass = *cls == "none" ? 0 : (*cls)[0] - '0';
  }
  return q;
}

std::vector<ops::QueryParamDoc> attemptQueryDocs() {
  return {{"limit", "integer", "1..200, default 50", {}, false},
          {"outcome", "string", "only attempts with this outcome", kOutcomes, false},
          {"statusClass", "string", "only answers of this class (none: no HTTP answer, statusCode 0)", kStatusClasses,
           false}};
}

}  // namespace aev::http
