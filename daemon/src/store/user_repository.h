#pragma once
#include <optional>
#include <string>
#include <vector>

#include "store/database.h"
#include "store/records.h"

namespace aev::store {

// Users are instance-wide; org-scoped reads go through a membership join.
class UserRepository {
 public:
  std::int64_t insert(Connection& c, const UserRecord& u);
  std::optional<UserRecord> byId(Connection& c, std::int64_t id);
  std::optional<UserRecord> byLogin(Connection& c, const std::string& emailOrUsername);
  bool emailTaken(Connection& c, const std::string& email, std::int64_t exceptId = 0);
  bool usernameTaken(Connection& c, const std::string& username, std::int64_t exceptId = 0);
  std::int64_t count(Connection& c);
  void updateProfile(Connection& c, std::int64_t id, const std::string& firstName, const std::string& lastName);
  void setActiveOrg(Connection& c, std::int64_t id, std::optional<std::int64_t> orgId);
  void setDisabled(Connection& c, std::int64_t id, std::optional<std::int64_t> disabledAt);
  void remove(Connection& c, std::int64_t id);
  // Users who are members of orgId, with their role there, ordered by id.
  std::vector<std::pair<UserRecord, std::string>> inOrganization(Connection& c, std::int64_t orgId);
  // Instance-wide search on e-mail or username (case-insensitive substring).
  std::vector<UserRecord> search(Connection& c, const std::string& q, int limit);
  // Users whose active org is about to go get another membership (lowest id) or none.
  void repairActiveOrgs(Connection& c, std::int64_t removedOrgId);

  static UserRecord fromRow(const Row& r);
  static const char* columns();
};

}  // namespace aev::store
