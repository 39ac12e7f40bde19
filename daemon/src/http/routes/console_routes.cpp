// /console/: the web console's page and files (console/site.h). Public: the files hold
// no data; every call the page makes goes through the API's own authentication.
#include "console/site.h"
#include "http/context.h"
#include "http/router.h"

namespace aev::http {

void registerConsoleRoutes(Router& router, const console::Site& site) {
  auto serve = [&site](Request& req) {
    if (req.path == "/console") {  // relative URLs in the page need the slash
      Response r = Response::text(308, "text/plain; charset=utf-8", "/console/\n");
      r.headers = console::Site::securityHeaders();
      r.headers.emplace_back("Location", "/console/");
      return r;
    }
    console::Fetch fetch;
    fetch.path = req.param("path");
    fetch.wantsHtml = req.header("accept").find("text/html") != std::string::npos;
    fetch.acceptsGzip = console::Site::acceptsGzip(req.header("accept-encoding"));
    fetch.ifNoneMatch = req.header("if-none-match");
    auto reply = site.get(fetch);
    Response r;
    r.status = reply.status;
    r.contentType = std::move(reply.contentType);
    r.body = std::move(reply.body);
    r.headers = std::move(reply.headers);
    return r;
  };
  router.add("GET", "/console/{path*}", serve,
             "The web console (a single page; deep links under /console/ load it too).", "console", true);
  // HEAD answers as GET does, headers and Content-Length included; the dispatcher sends
  // no body for a HEAD (link checkers, proxies and `curl -I` ask this way).
  router.add("HEAD", "/console/{path*}", serve, "The web console's headers.", "console", true);
}

}  // namespace aev::http
