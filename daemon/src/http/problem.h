#pragma once
// RFC 9457 problem+json rendering of ApiError (docs/api.md#errors).
#include <exception>

#include "common/errors.h"
#include "http/request.h"

namespace aev::http {

inline constexpr const char* kProblemTypeBase = "https://agent-events.dev/problems/";

// The problem object itself (also embedded per item in batch results).
Poco::JSON::Object::Ptr problemBody(const ApiError& error, const std::string& instance);
Response problemResponse(const ApiError& error, const std::string& instance);
// The answer to an exception a handler (or a deferred completion) raised: an ApiError's
// problem, or a 500 whose cause goes to the log with the request id (the client gets no
// SQL or stack, only the id).
Response responseForFailure(std::exception_ptr error, const Request& req);

}  // namespace aev::http
