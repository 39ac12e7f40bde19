#pragma once
// Plain rows of the identity tables, as repositories return them.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace aev::store {

struct UserRecord {
  std::int64_t id = 0;
  std::string email;
  std::string username;
  std::string passwordHash;
  std::string firstName;
  std::string lastName;
  bool instanceAdmin = false;
  std::optional<std::int64_t> disabledAt;
  std::optional<std::int64_t> activeOrgId;
  std::int64_t createdAt = 0;
  std::int64_t updatedAt = 0;
};

struct OrganizationRecord {
  std::int64_t id = 0;
  std::string name;
  std::string slug;
  std::string description;
  std::string plan;
  std::string subscriptionStatus;
  std::int64_t createdAt = 0;
  std::int64_t updatedAt = 0;
};

struct MembershipRecord {
  std::int64_t id = 0;
  std::int64_t userId = 0;
  std::int64_t orgId = 0;
  std::string role;
  std::int64_t joinedAt = 0;
};

struct InvitationRecord {
  std::int64_t id = 0;
  std::int64_t orgId = 0;
  std::string codePrefix;
  std::string invitedEmail;
  std::string role;
  std::string status;
  std::optional<std::int64_t> invitedBy;
  std::optional<std::int64_t> acceptedBy;
  std::int64_t createdAt = 0;
  std::int64_t expiresAt = 0;
  std::optional<std::int64_t> acceptedAt;
};

struct ApiKeyRecord {
  std::int64_t id = 0;
  std::int64_t orgId = 0;
  std::string name;
  std::string keyPrefix;
  std::vector<std::string> scopes;
  std::optional<std::int64_t> createdBy;
  std::int64_t createdAt = 0;
  std::optional<std::int64_t> revokedAt;
  std::optional<std::int64_t> lastUsedAt;
  std::optional<std::int64_t> defaultChannelId;  // where OTLP exports naming no channel go
};

struct RefreshTokenRecord {
  std::int64_t id = 0;
  std::string familyId;
  std::int64_t userId = 0;
  std::optional<std::int64_t> orgId;
  std::int64_t createdAt = 0;
  std::int64_t expiresAt = 0;
  std::optional<std::int64_t> usedAt;
  std::optional<std::int64_t> revokedAt;
};

struct AccessRequestRecord {
  std::int64_t id = 0;
  std::int64_t userId = 0;
  std::string status;  // pending | approved | rejected
  std::int64_t createdAt = 0;
  std::optional<std::int64_t> decidedAt;
  std::optional<std::int64_t> decidedBy;
  // joined for listings
  std::string email;
  std::string username;
};

}  // namespace aev::store

namespace aev::store {

struct AppRecord {
  std::int64_t id = 0;
  std::int64_t orgId = 0;
  std::string name;
  std::optional<std::int64_t> creatorUserId;
  std::int64_t createdAt = 0;
  std::int64_t updatedAt = 0;
};

struct ChannelRecord {
  std::int64_t id = 0;
  std::int64_t orgId = 0;
  std::int64_t appId = 0;
  std::string name;
  std::int64_t lastSeq = 0;
  std::int64_t createdAt = 0;
  std::int64_t updatedAt = 0;
};

}  // namespace aev::store
