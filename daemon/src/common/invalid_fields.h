#pragma once
// The 422 of a body's field problems, for every place that collects them before
// answering (http::BodyReader, events::Publisher): the detail names the first problem and
// counts the others, so a publisher sees the same answer whichever collected them.
#include <string>
#include <vector>

#include "common/errors.h"

namespace aev::errors {

inline ApiError invalidFields(std::vector<FieldError> fields) {
  std::string detail = fields.front().location + " " + fields.front().message;
  if (fields.size() > 1) detail += " (and " + std::to_string(fields.size() - 1) + " more)";
  return validation(std::move(fields), detail);
}

}  // namespace aev::errors
