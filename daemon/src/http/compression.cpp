#include "http/compression.h"

#include <zlib.h>

#include <cctype>
#include <stdexcept>

#include "console/site.h"

namespace aev::http {

namespace {

bool startsWith(std::string_view s, std::string_view prefix) { return s.substr(0, prefix.size()) == prefix; }

bool hasHeader(const Response& resp, std::string_view name) {
  for (const auto& [k, v] : resp.headers) {
    if (k.size() != name.size()) continue;
    bool same = true;
    for (std::size_t i = 0; i < k.size() && same; ++i)
      same = std::tolower(static_cast<unsigned char>(k[i])) == std::tolower(static_cast<unsigned char>(name[i]));
    if (same) return true;
  }
  return false;
}

}  // namespace

bool compressibleType(std::string_view contentType) {
  const auto type = contentType.substr(0, contentType.find(';'));
  if (type == "text/event-stream") return false;
  return startsWith(type, "text/") || type == "application/json" || type.find("+json") != std::string_view::npos ||
         type == "application/javascript" || type == "image/svg+xml";
}

void compressForClient(const Request& req, Response& resp) {
  if (resp.takeover || resp.deferred || resp.status < 200 || resp.status == 204 || resp.status == 206 ||
      resp.status == 304 || resp.body.size() < kMinCompressBytes || !compressibleType(resp.contentType) ||
      hasHeader(resp, "content-encoding"))
    return;
  resp.headers.emplace_back("Vary", "Accept-Encoding");  // the answer depends on it, whichever was sent
  if (!console::Site::acceptsGzip(req.header("accept-encoding"))) return;
  resp.body = gzip(resp.body);
  resp.headers.emplace_back("Content-Encoding", "gzip");
}

std::string gzip(std::string_view data) {
  z_stream z{};
  // windowBits 15 + 16: the gzip wrapper (RFC 1952), which Content-Encoding: gzip names.
  if (deflateInit2(&z, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY) != Z_OK)
    throw std::runtime_error("zlib could not start");
  std::string out(deflateBound(&z, static_cast<uLong>(data.size())), '\0');
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
  z.avail_in = static_cast<uInt>(data.size());
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = static_cast<uInt>(out.size());
  const int rc = deflate(&z, Z_FINISH);  // deflateBound leaves room for all of it at once
  out.resize(z.total_out);
  deflateEnd(&z);
  if (rc != Z_STREAM_END) throw std::runtime_error("zlib could not compress the answer");
  return out;
}

}  // namespace aev::http
