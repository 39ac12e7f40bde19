#pragma once
#include <stdexcept>

namespace aev {

// The store could not do its work for a reason outside the request: the disk failed or is
// full, the database stayed locked past its timeout, the connection to the server is gone.
// Thrown by the store's statement runners; the http module answers 503 with Retry-After
// (the same request may well succeed shortly), never a 500, which would say our code is
// wrong. The message keeps the database's own text for the log.
class StorageUnavailable : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace aev
