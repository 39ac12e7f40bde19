#include "support/batch_results.h"

#include <stdexcept>

#include "support/api_fixture.h"
#include "support/http_client.h"

namespace aev::testing {

bool isStoredEvent(const Poco::JSON::Object::Ptr& result) {
  if (!result) throw std::runtime_error("no batch result");
  const bool problem = result->has("type") && result->has("status");
  if (problem == result->has("id")) throw std::runtime_error("neither an event nor a problem: " + toJson(result));
  return !problem;
}

std::int64_t batchStatus(const Poco::JSON::Object::Ptr& result) {
  return isStoredEvent(result) ? 201 : intField(result, "status");
}

}  // namespace aev::testing
