#include "plugins/results.h"

namespace aev::plugins {

std::string_view statusName(aev_status status) {
  switch (status) {
    case AEV_OK: return "ok";
    case AEV_RETRY: return "retry";
    case AEV_ERR_PERMANENT: return "permanent";
    case AEV_ERR_CONFIG: return "config";
    case AEV_ERR_UNSUPPORTED: return "unsupported";
    case AEV_ERR_INTERNAL: return "internal";
    case AEV_ERR_INVALID_ARGUMENT: return "invalid_argument";
    case AEV_ERR_NOT_FOUND: return "not_found";
    default: return "unknown";
  }
}

}  // namespace aev::plugins
