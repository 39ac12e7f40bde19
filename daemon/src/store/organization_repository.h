#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "store/database.h"
#include "store/records.h"

namespace aev::store {

class OrganizationRepository {
 public:
  std::int64_t insert(Connection& c, const OrganizationRecord& o);
  std::optional<OrganizationRecord> byId(Connection& c, std::int64_t id);
  bool slugTaken(Connection& c, const std::string& slug, std::int64_t exceptId = 0);
  void update(Connection& c, const OrganizationRecord& o);
  void remove(Connection& c, std::int64_t id);
  // What the organization holds, counted in one statement, as (name, count) in a fixed
  // order: apps, channels, events, apiKeys (not revoked), members, pendingInvitations,
  // environments, webhookEndpoints, exportDestinations, moderationRules, spendPolicies,
  // alertRules. Deleting the organization deletes all of it.
  std::vector<std::pair<std::string, std::int64_t>> contents(Connection& c, std::int64_t id, std::int64_t now);
};

class MembershipRepository {
 public:
  void insert(Connection& c, std::int64_t orgId, std::int64_t userId, const std::string& role);
  std::optional<MembershipRecord> find(Connection& c, std::int64_t orgId, std::int64_t userId);
  // Memberships of a user joined with their organizations, ordered by org id.
  std::vector<std::pair<MembershipRecord, OrganizationRecord>> ofUser(Connection& c, std::int64_t userId);
  std::vector<std::pair<MembershipRecord, UserRecord>> ofOrganization(Connection& c, std::int64_t orgId);
  void setRole(Connection& c, std::int64_t orgId, std::int64_t userId, const std::string& role);
  void remove(Connection& c, std::int64_t orgId, std::int64_t userId);
  std::int64_t countMembers(Connection& c, std::int64_t orgId);
  std::int64_t countAdmins(Connection& c, std::int64_t orgId);
  std::optional<std::int64_t> firstOtherOrganization(Connection& c, std::int64_t userId, std::int64_t excludeOrgId);

  static MembershipRecord fromRow(const Row& r);
};

OrganizationRecord organizationFromRow(const Row& r);

}  // namespace aev::store
