#pragma once
// Gzip of answers (decisions §10; docs/api.md#compression): JSON and other text answers of
// kMinCompressBytes or more are sent gzip-compressed when the request's Accept-Encoding
// allows it, with Vary: Accept-Encoding. Never a stream (SSE), a deferred answer (a
// publish's, completed on another thread), or a body already encoded (the console's
// files, compressed once at start-up).
#include <string>
#include <string_view>

#include "http/request.h"

namespace aev::http {

inline constexpr std::size_t kMinCompressBytes = 1024;

// Whether answers of this Content-Type are worth compressing: JSON (any +json), text
// other than event streams, JavaScript, SVG.
bool compressibleType(std::string_view contentType);

// Compresses resp's body in place when the rules above allow it.
void compressForClient(const Request& req, Response& resp);

// `data` as one gzip member (zlib, level 6 (zlib's default)).
std::string gzip(std::string_view data);

}  // namespace aev::http
