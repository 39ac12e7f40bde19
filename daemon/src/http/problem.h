#pragma once
// RFC 9457 problem+json rendering of ApiError (decisions §2).
#include "common/errors.h"
#include "http/request.h"

namespace aev::http {

inline constexpr const char* kProblemTypeBase = "https://agent-events.dev/problems/";

// The problem object itself (also embedded per item in batch results).
Poco::JSON::Object::Ptr problemBody(const ApiError& error, const std::string& instance);
Response problemResponse(const ApiError& error, const std::string& instance);

}  // namespace aev::http
