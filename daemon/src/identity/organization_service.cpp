#include "identity/organization_service.h"

#include "audit/audit_log.h"
#include "common/clock.h"
#include "common/crypto.h"
#include "common/errors.h"
#include "common/text.h"
#include "events/event_writer.h"
#include "identity/validation.h"
#include "store/change_feed.h"
#include "store/constraint.h"

namespace aev::identity {

namespace {
void validateOrgFields(const std::optional<std::string>& name, const std::optional<std::string>& slug,
                       const std::optional<std::string>& description) {
  std::vector<FieldError> problems;
  if (name && (name->empty() || utf8Length(*name) > 120))
    problems.push_back({"body.name", "must be 1 to 120 characters", name->substr(0, 200)});
  if (slug && !isValidSlug(*slug))
    problems.push_back({"body.slug", "must match ^[a-z0-9][a-z0-9-]{0,62}$", slug->substr(0, 200)});
  if (description && utf8Length(*description) > 500)
    problems.push_back({"body.description", "must be at most 500 characters", description->substr(0, 200)});
  if (!problems.empty()) throw errors::validation(std::move(problems));
}

template <class F>
auto mapUniqueViolation(F&& fn, const char* message) {
  try {
    return fn();
  } catch (const ApiError&) {
    throw;
  } catch (const std::exception& e) {
    if (store::isUniqueViolation(e)) throw errors::conflict(message);
    throw;
  }
}
}  // namespace

store::MembershipRecord OrganizationService::requireMember(store::Connection& c, std::int64_t orgId,
                                                           std::int64_t userId) {
  auto m = memberships_.find(c, orgId, userId);
  if (!m) throw errors::notFound("Organization");
  return *m;
}

store::MembershipRecord OrganizationService::requireAdmin(store::Connection& c, std::int64_t orgId,
                                                          std::int64_t userId) {
  auto m = requireMember(c, orgId, userId);
  if (m.role != kRoleAdmin) throw errors::forbidden("This operation needs the admin role in the organization.");
  return m;
}

store::OrganizationRecord OrganizationService::create(std::int64_t userId, const std::string& name,
                                                      const std::string& slug, const std::string& description,
                                                      const audit::Actor& actor) {
  validateOrgFields(name, slug, description);
  return mapUniqueViolation(
      [&] {
        return db_.transaction([&](store::Connection& c) {
          if (orgs_.slugTaken(c, slug)) throw errors::conflict("That organization slug is taken.");
          store::OrganizationRecord org;
          org.name = name;
          org.slug = slug;
          org.description = description;
          org.plan = plans_.defaultPlan();
          org.subscriptionStatus = "active";
          org.createdAt = org.updatedAt = clock::nowMicros();
          org.id = orgs_.insert(c, org);
          memberships_.insert(c, org.id, userId, kRoleAdmin);
          users_.setActiveOrg(c, userId, org.id);
          audit_.record(c, org.id, actor,
                        audit::Change::of("organization", "create", org.id,
                                          audit::metadata({{"name", name}, {"slug", slug}})));
          return org;
        });
      },
      "That organization slug is taken.");
}

store::OrganizationRecord OrganizationService::get(std::int64_t orgId, std::int64_t userId) {
  auto c = db_.acquire();
  requireMember(*c, orgId, userId);
  auto org = orgs_.byId(*c, orgId);
  if (!org) throw errors::notFound("Organization");
  return *org;
}

OrganizationUsage OrganizationService::usage(std::int64_t orgId, std::int64_t userId) {
  auto c = db_.acquire();
  requireMember(*c, orgId, userId);
  const auto now = clock::nowMicros();
  OrganizationUsage u;
  u.period = events::EventWriter::periodOf(now);
  u.events = store::EventRepository().usage(*c, orgId, u.period);
  u.members = memberships_.countMembers(*c, orgId);
  u.pendingInvitations = invitations_.countPending(*c, orgId, now);
  return u;
}

std::vector<std::pair<std::string, std::int64_t>> OrganizationService::contents(std::int64_t orgId,
                                                                                std::int64_t userId) {
  auto c = db_.acquire();
  requireMember(*c, orgId, userId);
  return orgs_.contents(*c, orgId, clock::nowMicros());
}

store::OrganizationRecord OrganizationService::ofApiKey(std::int64_t orgId) {
  auto c = db_.acquire();
  auto org = orgs_.byId(*c, orgId);
  if (!org) throw errors::notFound("Organization");
  return *org;
}

store::OrganizationRecord OrganizationService::update(std::int64_t orgId, std::int64_t userId,
                                                      const OrganizationPatch& patch, const audit::Actor& actor) {
  validateOrgFields(patch.name, patch.slug, patch.description);
  return mapUniqueViolation(
      [&] {
        return db_.transaction([&](store::Connection& c) {
          requireMember(c, orgId, userId);
          auto org = orgs_.byId(c, orgId);
          if (!org) throw errors::notFound("Organization");
          if (patch.slug && *patch.slug != org->slug && orgs_.slugTaken(c, *patch.slug, orgId))
            throw errors::conflict("That organization slug is taken.");
          auto changes = audit::metadata({});
          if (patch.name && *patch.name != org->name) changes->set("name", audit::changed(org->name, *patch.name));
          if (patch.slug && *patch.slug != org->slug) changes->set("slug", audit::changed(org->slug, *patch.slug));
          if (patch.description && *patch.description != org->description)
            changes->set("description", audit::changed(org->description, *patch.description));
          if (patch.name) org->name = *patch.name;
          if (patch.slug) org->slug = *patch.slug;
          if (patch.description) org->description = *patch.description;
          org->updatedAt = clock::nowMicros();
          orgs_.update(c, *org);
          audit_.record(c, orgId, actor, audit::Change::of("organization", "update", orgId, changes));
          return *org;
        });
      },
      "That organization slug is taken.");
}

void OrganizationService::remove(std::int64_t orgId, std::int64_t userId) {
  db_.transaction([&](store::Connection& c) {
    requireAdmin(c, orgId, userId);
    users_.repairActiveOrgs(c, orgId);
    orgs_.remove(c, orgId);  // memberships, invitations and API keys cascade
    store::notifyChange(c, {"organization.deleted", orgId, 0});
  });
  if (revoked_) revoked_(Revocation{orgId, std::nullopt, std::nullopt});
}

std::vector<std::pair<store::MembershipRecord, store::OrganizationRecord>> OrganizationService::membershipsOf(
    std::int64_t userId) {
  auto c = db_.acquire();
  return memberships_.ofUser(*c, userId);
}

std::vector<std::pair<store::MembershipRecord, store::UserRecord>> OrganizationService::members(std::int64_t orgId,
                                                                                               std::int64_t userId) {
  auto c = db_.acquire();
  requireMember(*c, orgId, userId);
  return memberships_.ofOrganization(*c, orgId);
}

void OrganizationService::setMemberRole(std::int64_t orgId, std::int64_t actorId, std::int64_t targetId,
                                        const std::string& role, const audit::Actor& actor) {
  if (!isValidRole(role)) throw errors::invalidField("body.role", "must be admin or user", role);
  db_.transaction([&](store::Connection& c) {
    requireAdmin(c, orgId, actorId);
    auto target = memberships_.find(c, orgId, targetId);
    if (!target) throw errors::notFound("Member");
    if (target->role == role) return;
    if (target->role == kRoleAdmin && memberships_.countAdmins(c, orgId) <= 1)
      throw errors::conflict("An organization needs at least one admin.");
    memberships_.setRole(c, orgId, targetId, role);
    audit_.record(c, orgId, actor,
                  audit::Change::of("member", "role_change", targetId,
                                    audit::metadata({{"role", audit::changed(target->role, role)}})));
  });
}

void OrganizationService::removeMember(std::int64_t orgId, std::int64_t actorId, std::int64_t targetId,
                                       const audit::Actor& actor) {
  db_.transaction([&](store::Connection& c) {
    // Members may leave on their own; removing someone else takes the admin role.
    if (actorId == targetId)
      requireMember(c, orgId, actorId);
    else
      requireAdmin(c, orgId, actorId);
    auto target = memberships_.find(c, orgId, targetId);
    if (!target) throw errors::notFound("Member");
    if (target->role == kRoleAdmin && memberships_.countAdmins(c, orgId) <= 1)
      throw errors::conflict("An organization needs at least one admin.");
    memberships_.remove(c, orgId, targetId);
    if (auto user = users_.byId(c, targetId); user && user->activeOrgId == orgId)
      users_.setActiveOrg(c, targetId, memberships_.firstOtherOrganization(c, targetId, orgId));
    audit_.record(c, orgId, actor,
                  audit::Change::of("member", actorId == targetId ? "leave" : "remove", targetId,
                                    audit::metadata({{"role", target->role}})));
  });
  if (revoked_) revoked_(Revocation{orgId, targetId, std::nullopt});
}

void OrganizationService::switchActive(std::int64_t userId, std::int64_t orgId) {
  db_.transaction([&](store::Connection& c) {
    requireMember(c, orgId, userId);
    users_.setActiveOrg(c, userId, orgId);
  });
}

void OrganizationService::checkSeats(store::Connection& c, const store::OrganizationRecord& org,
                                     std::int64_t adding) {
  const auto seats = planOf(org).seatLimit;
  const auto used = memberships_.countMembers(c, org.id) + invitations_.countPending(c, org.id, clock::nowMicros());
  if (used + adding > seats)
    throw errors::conflict("The organization's plan allows " + std::to_string(seats) +
                           " seats (members plus pending invitations); all are taken.");
}

CreatedInvitation OrganizationService::invite(std::int64_t orgId, std::int64_t actorId, const std::string& emailIn,
                                              const std::string& role, const audit::Actor& actor) {
  const auto email = lower(emailIn);
  std::vector<FieldError> problems;
  if (!isValidEmail(email)) problems.push_back({"body.invitedEmail", "must be an e-mail address", emailIn});
  if (!isValidRole(role)) problems.push_back({"body.desired_role", "must be admin or user", role});
  if (!problems.empty()) throw errors::validation(std::move(problems));
  return db_.transaction([&](store::Connection& c) {
    requireAdmin(c, orgId, actorId);
    auto org = orgs_.byId(c, orgId);
    if (!org) throw errors::notFound("Organization");
    const auto now = clock::nowMicros();
    if (auto existing = users_.byLogin(c, email); existing && existing->email == email &&
                                                  memberships_.find(c, orgId, existing->id))
      throw errors::conflict("That person is already a member.");
    if (invitations_.hasPendingFor(c, orgId, email, now))
      throw errors::conflict("A pending invitation for that e-mail address exists.");
    checkSeats(c, *org, 1);
    CreatedInvitation out;
    out.code = "inv_" + crypto::randomBase62(32);
    out.record.orgId = orgId;
    out.record.codePrefix = out.code.substr(0, 8);
    out.record.invitedEmail = email;
    out.record.role = role;
    out.record.status = "pending";
    out.record.invitedBy = actorId;
    out.record.createdAt = now;
    out.record.expiresAt = now + static_cast<std::int64_t>(invitationTtlSeconds_) * clock::kSecond;
    out.record.id = invitations_.insert(c, out.record, crypto::sha256Hex(out.code));
    audit_.record(c, orgId, actor,
                  audit::Change::of("invitation", "create", out.record.id,
                                    audit::metadata({{"invitedEmail", email}, {"role", role}})));
    return out;
  });
}

std::vector<store::InvitationRecord> OrganizationService::invitations(std::int64_t orgId, std::int64_t actorId) {
  auto c = db_.acquire();
  requireAdmin(*c, orgId, actorId);
  return invitations_.list(*c, orgId);
}

store::MembershipRecord OrganizationService::acceptInvitation(const std::string& code, std::int64_t userId,
                                                              const std::string& userEmail, const audit::Actor& actor) {
  return db_.transaction([&](store::Connection& c) {
    auto inv = invitations_.byCodeHash(c, crypto::sha256Hex(code));
    const auto now = clock::nowMicros();
    if (!inv || inv->status != "pending" || inv->expiresAt <= now) throw errors::notFound("Invitation");
    if (lower(userEmail) != inv->invitedEmail)
      throw errors::forbidden("This invitation was sent to another e-mail address.");
    if (memberships_.find(c, inv->orgId, userId)) throw errors::conflict("You are already a member.");
    if (!invitations_.accept(c, inv->id, userId, now)) throw errors::notFound("Invitation");
    memberships_.insert(c, inv->orgId, userId, inv->role);
    auto m = memberships_.find(c, inv->orgId, userId);
    audit_.record(c, inv->orgId, actor,
                  audit::Change::of("invitation", "accept", inv->id,
                                    audit::metadata({{"userId", std::to_string(userId)}, {"role", inv->role}})));
    return *m;
  });
}

}  // namespace aev::identity
