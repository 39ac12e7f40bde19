#include "store/constraint.h"

#include <Poco/Exception.h>

#include <string>

namespace aev::store {

bool isUniqueViolation(const std::exception& e) {
  std::string text = e.what();
  if (auto* poco = dynamic_cast<const Poco::Exception*>(&e)) text += " " + poco->displayText();
  return text.find("UNIQUE constraint failed") != std::string::npos ||
         text.find("duplicate key value") != std::string::npos || text.find("23505") != std::string::npos;
}

}  // namespace aev::store
