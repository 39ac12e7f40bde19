#include "audit/chain.h"

#include "common/clock.h"
#include "common/crypto.h"
#include "common/json_text.h"

namespace aev::audit {

namespace {

// Appends `"key":` then the value; keys are appended by the callers in sorted order.
void key(std::string& out, const char* name) {
  if (out.size() > 1) out += ',';
  appendJsonString(out, name);
  out += ':';
}

void field(std::string& out, const char* name, const std::string& value) {
  key(out, name);
  appendJsonString(out, value);
}

}  // namespace

std::string entryText(const store::AuditRecord& e) {
  std::string out = "{";
  field(out, "action", e.action);
  field(out, "actorEmail", e.actorEmail);
  field(out, "actorId", e.actorId);
  field(out, "createdAt", clock::toRfc3339(e.createdAt));
  field(out, "ipAddress", e.ipAddress);
  key(out, "metadata");
  out += e.metadata ? *e.metadata : std::string("null");
  field(out, "organizationId", std::to_string(e.orgId));
  field(out, "requestId", e.requestId);
  field(out, "resourceId", e.resourceId);
  field(out, "resourceType", e.resourceType);
  key(out, "seq");
  out += std::to_string(e.seq);
  field(out, "source", e.source);
  out += '}';
  return out;
}

std::string entryHash(const std::string& prevHash, const store::AuditRecord& entry) {
  return crypto::sha256Hex(prevHash + entryText(entry));
}

std::string checkpointText(const store::AuditCheckpointRecord& cp) {
  std::string out = "{";
  field(out, "entryHash", cp.entryHash);
  field(out, "keyId", cp.keyId);
  field(out, "organizationId", std::to_string(cp.orgId));
  key(out, "seq");
  out += std::to_string(cp.seq);
  field(out, "signedAt", clock::toRfc3339(cp.signedAt));
  out += '}';
  return out;
}

}  // namespace aev::audit
