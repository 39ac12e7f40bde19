// /openapi.json and /schemas/<Name>.json (public, decisions §1).
#include "common/errors.h"
#include "http/context.h"
#include "http/router.h"
#include "ops/schemas.h"

namespace aev::http {

void registerSchemaRoutes(Router& router, AppContext&) {
  router.add(
      "GET", "/schemas/{file}",
      [](Request& req) {
        std::string name = req.param("file");
        if (name.size() > 5 && name.ends_with(".json")) name.resize(name.size() - 5);
        auto text = ops::schemaText(name, req.baseUrl);
        if (!text) throw errors::notFound("Schema");
        return Response::text(200, "application/schema+json", *text);
      },
      "The JSON Schema named by a response's `$schema`.", "ops", true);

  // Registered last, it captures itself too; the route table is read per request so the
  // document always matches what the router serves.
  router.add(
      "GET", "/openapi.json",
      [&router](Request& req) {
        std::vector<ops::RouteDoc> docs;
        for (const auto& r : router.routes())
          if (r.tag != "console")  // the console's web files are not part of the API
            docs.push_back({r.method, r.pathTemplate, r.summary, r.tag, r.isPublic, r.query, r.responseSchema});
        return Response::text(200, "application/json", ops::openApiDocument(docs, req.baseUrl));
      },
      "This OpenAPI 3.1 document.", "ops", true);
}

}  // namespace aev::http
