#include "common/exceptions.h"

#include <Poco/Exception.h>

namespace aev {

std::string describeException(const std::exception& e) {
  if (auto* poco = dynamic_cast<const Poco::Exception*>(&e)) return poco->displayText();
  return e.what();
}

}  // namespace aev
