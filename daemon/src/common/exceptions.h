#pragma once
#include <exception>
#include <string>

namespace aev {

// The most useful text of an exception: Poco's what() is only the class name, its
// displayText() carries the message.
std::string describeException(const std::exception& e);

}  // namespace aev
