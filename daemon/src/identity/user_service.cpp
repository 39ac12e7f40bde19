#include "identity/user_service.h"

#include "audit/audit_log.h"
#include "common/clock.h"
#include "common/errors.h"
#include "identity/plans.h"
#include "identity/validation.h"
#include "store/constraint.h"

namespace aev::identity {

UserService::UserService(store::Database& db, audit::AuditLog& audit, auth::PasswordHasher& hasher,
                         const PlanCatalog& plans, std::string registrationMode)
    : db_(db), audit_(audit), hasher_(hasher), plans_(plans), mode_(std::move(registrationMode)) {
  if (mode_ != "open" && mode_ != "approval" && mode_ != "closed")
    throw std::invalid_argument("auth.registration must be open, approval or closed");
}

std::string UserService::uniqueSlug(store::Connection& c, const std::string& base) {
  std::string slug = slugify(base);
  for (int n = 2; orgs_.slugTaken(c, slug); ++n) slug = slugify(base) + "-" + std::to_string(n);
  return slug;
}

UserInOrg UserService::registerUser(const RegisterInput& in, const audit::Actor& origin) {
  const auto email = lower(in.email);
  const auto username = lower(in.username);
  std::vector<FieldError> problems;
  if (!isValidEmail(email)) problems.push_back({"body.email", "must be an e-mail address", in.email});
  if (!isValidUsername(username))
    problems.push_back({"body.username", "must be 3 to 64 of a-z, 0-9, '_', '.', '-', starting alphanumeric",
                        in.username});
  if (in.password.size() < 8 || in.password.size() > 1024)
    problems.push_back({"body.password", "must be 8 to 1024 bytes", ""});
  if (in.firstName.size() > 120) problems.push_back({"body.first_name", "must be at most 120 characters", ""});
  if (in.lastName.size() > 120) problems.push_back({"body.last_name", "must be at most 120 characters", ""});
  if (!problems.empty()) throw errors::validation(std::move(problems));

  const auto passwordHash = hasher_.hash(in.password);  // slow: outside the transaction
  try {
    return db_.transaction([&](store::Connection& c) {
      const bool first = users_.count(c) == 0;
      if (!first && mode_ == "closed") throw errors::forbidden("Registration is closed on this instance.");
      if (users_.emailTaken(c, email)) throw errors::conflict("That e-mail address is already registered.");
      if (users_.usernameTaken(c, username)) throw errors::conflict("That username is taken.");
      const auto now = clock::nowMicros();

      store::OrganizationRecord org;
      org.name = username;
      org.slug = uniqueSlug(c, username);
      org.plan = plans_.defaultPlan();
      org.subscriptionStatus = "active";
      org.createdAt = org.updatedAt = now;
      org.id = orgs_.insert(c, org);

      store::UserRecord u;
      u.email = email;
      u.username = username;
      u.passwordHash = passwordHash;
      u.firstName = in.firstName;
      u.lastName = in.lastName;
      u.instanceAdmin = first;  // the first account ever is the instance admin
      if (!first && mode_ == "approval") u.disabledAt = now;
      u.activeOrgId = org.id;
      u.createdAt = u.updatedAt = now;
      u.id = users_.insert(c, u);
      memberships_.insert(c, org.id, u.id, kRoleAdmin);
      if (u.disabledAt) accessRequests_.insert(c, u.id, now);
      auto actor = origin;
      actor.source = "dashboard";
      actor.actorId = std::to_string(u.id);
      actor.actorEmail = u.email;
      audit_.record(c, org.id, actor,
                    audit::Change::of("user", "register", u.id,
                                      audit::metadata({{"username", username}, {"organizationSlug", org.slug}})));
      return UserInOrg{u, org.id, kRoleAdmin};
    });
  } catch (const std::exception& e) {
    if (store::isUniqueViolation(e)) throw errors::conflict("That e-mail address or username is already registered.");
    throw;
  }
}

UserInOrg UserService::view(std::int64_t userId, std::optional<std::int64_t> orgId) {
  auto c = db_.acquire();
  auto user = users_.byId(*c, userId);
  if (!user) throw errors::notFound("User");
  UserInOrg out{*user, std::nullopt, ""};
  if (orgId)
    if (auto m = memberships_.find(*c, *orgId, userId)) {
      out.orgId = orgId;
      out.role = m->role;
    }
  return out;
}

UserInOrg UserService::updateProfile(std::int64_t userId, std::optional<std::int64_t> orgId,
                                     const std::optional<std::string>& firstName,
                                     const std::optional<std::string>& lastName) {
  {
    auto c = db_.acquire();
    auto user = users_.byId(*c, userId);
    if (!user) throw errors::notFound("User");
    users_.updateProfile(*c, userId, firstName.value_or(user->firstName), lastName.value_or(user->lastName));
  }
  return view(userId, orgId);
}

std::vector<UserInOrg> UserService::listInOrganization(std::int64_t orgId) {
  auto c = db_.acquire();
  std::vector<UserInOrg> out;
  for (auto& [user, role] : users_.inOrganization(*c, orgId)) out.push_back({user, orgId, role});
  return out;
}

UserInOrg UserService::adminUpdate(std::int64_t orgId, std::int64_t actorId, std::int64_t targetId,
                                   const AdminUserUpdate& update, const audit::Actor& actor) {
  if (update.role && !isValidRole(*update.role))
    throw errors::invalidField("body.role", "must be admin or user", *update.role);
  db_.transaction([&](store::Connection& c) {
    auto m = memberships_.find(c, orgId, targetId);
    if (!m) throw errors::notFound("User");
    auto user = users_.byId(c, targetId);
    if (!user) throw errors::notFound("User");
    auto changes = audit::metadata({});
    if (update.firstName || update.lastName) {
      users_.updateProfile(c, targetId, update.firstName.value_or(user->firstName),
                           update.lastName.value_or(user->lastName));
      if (update.firstName && *update.firstName != user->firstName)
        changes->set("firstName", audit::changed(user->firstName, *update.firstName));
      if (update.lastName && *update.lastName != user->lastName)
        changes->set("lastName", audit::changed(user->lastName, *update.lastName));
    }
    if (update.role && *update.role != m->role) {
      if (m->role == kRoleAdmin && memberships_.countAdmins(c, orgId) <= 1)
        throw errors::conflict("An organization needs at least one admin.");
      memberships_.setRole(c, orgId, targetId, *update.role);
      changes->set("role", audit::changed(m->role, *update.role));
    }
    if (update.disabled) {
      if (targetId == actorId && *update.disabled) throw errors::conflict("You cannot disable your own account.");
      if (user->instanceAdmin && *update.disabled) throw errors::conflict("The instance admin cannot be disabled.");
      const auto now = clock::nowMicros();
      users_.setDisabled(c, targetId, *update.disabled ? std::optional<std::int64_t>(now) : std::nullopt);
      if (*update.disabled) refreshTokens_.revokeAllOfUser(c, targetId, now);
      changes->set("disabled", *update.disabled);
    }
    audit_.record(c, orgId, actor, audit::Change::of("user", "update", targetId, changes));
  });
  if (revoked_ && update.disabled && *update.disabled) revoked_(Revocation{std::nullopt, targetId, std::nullopt});
  return view(targetId, orgId);
}

void UserService::adminDelete(std::int64_t orgId, std::int64_t actorId, std::int64_t targetId,
                              const audit::Actor& actor) {
  db_.transaction([&](store::Connection& c) {
    if (!memberships_.find(c, orgId, targetId)) throw errors::notFound("User");
    if (targetId == actorId) throw errors::conflict("You cannot delete your own account here.");
    auto user = users_.byId(c, targetId);
    if (!user) throw errors::notFound("User");
    if (user->instanceAdmin) throw errors::conflict("The instance admin cannot be deleted.");
    // Deleting an account must not reach into organizations the caller does not run:
    // allowed only when every other organization of the user has the user alone.
    std::vector<std::int64_t> soloOrgs;
    for (const auto& [membership, org] : memberships_.ofUser(c, targetId)) {
      if (org.id == orgId) continue;
      if (memberships_.countMembers(c, org.id) > 1)
        throw errors::conflict(
            "The user belongs to other organizations; remove them from this one with DELETE "
            "/organizations/{orgId}/members/{userId} instead.");
      soloOrgs.push_back(org.id);
    }
    users_.remove(c, targetId);
    for (auto id : soloOrgs) orgs_.remove(c, id);
    audit_.record(c, orgId, actor,
                  audit::Change::of("user", "delete", targetId, audit::metadata({{"email", user->email}})));
  });
  if (revoked_) revoked_(Revocation{std::nullopt, targetId, std::nullopt});
}

std::vector<store::UserRecord> UserService::search(const std::string& q, int limit) {
  auto c = db_.acquire();
  return users_.search(*c, q, limit);
}

std::vector<store::AccessRequestRecord> UserService::accessRequests(const std::optional<std::string>& status) {
  auto c = db_.acquire();
  return accessRequests_.list(*c, status);
}

void UserService::decideAccessRequest(std::int64_t requestId, const std::string& status, std::int64_t adminId) {
  if (status != "approved" && status != "rejected")
    throw errors::invalidField("body.status", "must be approved or rejected", status);
  db_.transaction([&](store::Connection& c) {
    auto request = accessRequests_.byId(c, requestId);
    if (!request) throw errors::notFound("Access request");
    const auto now = clock::nowMicros();
    accessRequests_.decide(c, requestId, status, adminId, now);
    users_.setDisabled(c, request->userId, status == "approved" ? std::nullopt : std::optional<std::int64_t>(now));
  });
}

}  // namespace aev::identity
