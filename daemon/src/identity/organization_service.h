#pragma once
// Organizations, memberships and invitations. Every operation names the organization
// and the acting user; a non-member sees 404 (existence is never revealed), a member
// without the admin role sees 403 where admin is required.
#include <optional>
#include <string>
#include <vector>

#include "audit/actor.h"
#include "common/revocation.h"
#include "identity/plans.h"
#include "store/credential_repositories.h"
#include "store/database.h"
#include "store/organization_repository.h"
#include "store/user_repository.h"

namespace aev::audit {
class AuditLog;
}

namespace aev::identity {

struct OrganizationPatch {
  std::optional<std::string> name;
  std::optional<std::string> slug;
  std::optional<std::string> description;
};

// What the plan's limits are measured against: this calendar month's (UTC) published
// events, as the quota counts them, and the seats taken (members plus pending invitations).
struct OrganizationUsage {
  std::string period;  // "2026-11"
  std::int64_t events = 0;
  std::int64_t members = 0;
  std::int64_t pendingInvitations = 0;
};

struct CreatedInvitation {
  store::InvitationRecord record;
  std::string code;  // shown once
};

class OrganizationService {
 public:
  OrganizationService(store::Database& db, audit::AuditLog& audit, const PlanCatalog& plans, int invitationTtlSeconds)
      : db_(db), audit_(audit), plans_(plans), invitationTtlSeconds_(invitationTtlSeconds) {}
  void onRevoked(RevocationListener listener) { revoked_ = std::move(listener); }

  // Creates the organization, makes the user its admin and switches the user's active
  // organization to it. Changes below that take an actor are recorded in the audit log;
  // deleting an organization deletes its log with it.
  store::OrganizationRecord create(std::int64_t userId, const std::string& name, const std::string& slug,
                                   const std::string& description, const audit::Actor& actor);
  store::OrganizationRecord get(std::int64_t orgId, std::int64_t userId);
  OrganizationUsage usage(std::int64_t orgId, std::int64_t userId);  // members
  // What the organization holds, counted (members): what a deletion would take with it.
  std::vector<std::pair<std::string, std::int64_t>> contents(std::int64_t orgId, std::int64_t userId);
  // The organization an API key acts on (the key itself proves the access).
  store::OrganizationRecord ofApiKey(std::int64_t orgId);
  store::OrganizationRecord update(std::int64_t orgId, std::int64_t userId, const OrganizationPatch& patch,
                                   const audit::Actor& actor);
  void remove(std::int64_t orgId, std::int64_t userId);

  std::vector<std::pair<store::MembershipRecord, store::OrganizationRecord>> membershipsOf(std::int64_t userId);
  std::vector<std::pair<store::MembershipRecord, store::UserRecord>> members(std::int64_t orgId, std::int64_t userId);
  void setMemberRole(std::int64_t orgId, std::int64_t actorId, std::int64_t targetId, const std::string& role,
                     const audit::Actor& actor);
  void removeMember(std::int64_t orgId, std::int64_t actorId, std::int64_t targetId, const audit::Actor& actor);
  // Checks membership (404 otherwise) and makes orgId the user's active organization.
  void switchActive(std::int64_t userId, std::int64_t orgId);

  CreatedInvitation invite(std::int64_t orgId, std::int64_t actorId, const std::string& email, const std::string& role,
                           const audit::Actor& actor);
  std::vector<store::InvitationRecord> invitations(std::int64_t orgId, std::int64_t actorId);
  store::MembershipRecord acceptInvitation(const std::string& code, std::int64_t userId, const std::string& userEmail,
                                           const audit::Actor& actor);

  const Plan& planOf(const store::OrganizationRecord& org) const { return plans_.get(org.plan); }

 private:
  store::MembershipRecord requireMember(store::Connection& c, std::int64_t orgId, std::int64_t userId);
  store::MembershipRecord requireAdmin(store::Connection& c, std::int64_t orgId, std::int64_t userId);
  void checkSeats(store::Connection& c, const store::OrganizationRecord& org, std::int64_t adding);

  store::Database& db_;
  audit::AuditLog& audit_;
  const PlanCatalog& plans_;
  int invitationTtlSeconds_;
  store::OrganizationRepository orgs_;
  store::MembershipRepository memberships_;
  store::UserRepository users_;
  store::InvitationRepository invitations_;
  RevocationListener revoked_;
};

}  // namespace aev::identity
