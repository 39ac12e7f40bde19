// JSON Schemas of the /audit-logs responses (docs/features.md#audit-log).
#include "ops/schemas.h"

namespace aev::ops {

const std::map<std::string, std::string>& auditSchemas() {
  // One schema per entry, kept as readable JSON whatever line changes.
  // clang-format off
  static const std::map<std::string, std::string> schemas = {
      {"AuditLogEntry", R"json({
  "title": "AuditLogEntry", "type": "object",
  "required": ["id", "organizationId", "seq", "actorId", "actorEmail", "action", "resourceType", "resourceId",
               "source", "ipAddress", "requestId", "metadata", "createdAt", "prevHash", "entryHash"],
  "properties": {
    "id": {"type": "string", "pattern": "^[0-9]+$"}, "organizationId": {"type": "string", "pattern": "^[0-9]+$"},
    "seq": {"type": "integer", "minimum": 1, "description": "gapless per organization"},
    "actorId": {"type": "string", "description": "user id, or the API key id when source is apikey"},
    "actorEmail": {"type": "string"},
    "actorType": {"type": "string", "enum": ["user", "api_key"], "description": "api_key when source is apikey or mcp"},
    "actorName": {"type": "string", "description": "the API key's name (api_key), else the user's e-mail"},
    "action": {"type": "string", "description": "<resourceType>.<verb>, e.g. app.create, apikey.revoke"},
    "resourceType": {"type": "string"}, "resourceId": {"type": "string"},
    "source": {"type": "string", "enum": ["dashboard", "apikey", "mcp"]},
    "ipAddress": {"type": "string"}, "requestId": {"type": "string"},
    "metadata": {"description": "what changed (any JSON), or null"},
    "createdAt": {"type": "string", "format": "date-time"},
    "prevHash": {"type": "string", "pattern": "^[0-9a-f]{64}$"},
    "entryHash": {"type": "string", "pattern": "^[0-9a-f]{64}$",
                  "description": "SHA-256(prevHash ‖ canonical JSON of the entry), hex"}
  }})json"},
      {"AuditLogList", R"json({
  "title": "AuditLogList", "type": "object", "required": ["data"],
  "properties": {
    "$schema": {"type": "string", "format": "uri"},
    "data": {"type": "array", "items": {"$ref": "AuditLogEntry.json"}}
  }})json"},
      {"AuditLogVerification", R"json({
  "title": "AuditLogVerification", "type": "object", "required": ["ok", "checked", "brokenAtSeq"],
  "properties": {
    "$schema": {"type": "string", "format": "uri"},
    "ok": {"type": "boolean"},
    "checked": {"type": "integer", "description": "entries whose hashes were recomputed"},
    "brokenAtSeq": {"type": ["integer", "null"], "description": "first seq missing, altered or out of place"},
    "reason": {"type": ["string", "null"]},
    "headSeq": {"type": "integer"},
    "headHash": {"type": ["string", "null"], "description": "the head's entry hash as stored (null before the first entry)"},
    "checkpointsVerified": {"type": "integer"},
    "checkpointsUnverifiable": {"type": "integer", "description": "signed with a key this node does not hold"},
    "checkpoint": {"type": ["object", "null"], "description": "the newest signed checkpoint of the head",
      "required": ["organizationId", "seq", "entryHash", "signedAt", "keyId", "signature", "signedText", "publicKey"],
      "properties": {"organizationId": {"type": "string"}, "seq": {"type": "integer"},
        "entryHash": {"type": "string"}, "signedAt": {"type": "string", "format": "date-time"},
        "keyId": {"type": "string"}, "signature": {"type": "string", "description": "base64 Ed25519 signature"},
        "signedText": {"type": "string", "description": "the exact bytes signed"},
        "publicKey": {"type": "string", "description": "base64 Ed25519 public key"}}}
  }})json"}};
  // clang-format on
  return schemas;
}

}  // namespace aev::ops
