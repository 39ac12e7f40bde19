#include "identity/environment_service.h"

#include <charconv>

#include "audit/audit_log.h"
#include "common/clock.h"
#include "common/errors.h"
#include "common/text.h"
#include "identity/environment_rules.h"
#include "store/constraint.h"

namespace aev::identity {

namespace {

constexpr const char* kSlugTaken = "An environment with that slug exists in the organization.";

// Trims the name and checks both fields, reporting every problem in one 422.
void normalizeAndValidate(std::optional<std::string>& name, const std::optional<std::string>& slug) {
  std::vector<FieldError> problems;
  if (name) {
    *name = trimWhitespace(*name);
    const auto length = utf8Length(*name);
    if (length < 1 || length > kEnvironmentNameMax)
      problems.push_back(
          {"body.name", "must be 1 to 120 characters (surrounding whitespace is not counted)", name->substr(0, 200)});
  }
  if (slug && !isValidEnvironmentSlug(*slug))
    problems.push_back(
        {"body.slug", "must be 1 to 64 of a-z, 0-9 and '-', not starting or ending with '-'", slug->substr(0, 200)});
  if (!problems.empty()) throw errors::validation(std::move(problems));
}

// The pre-checks inside the transaction catch the usual duplicate; the UNIQUE (org_id,
// slug) constraint catches the race between two concurrent writers.
template <class F>
auto conflictOnDuplicateSlug(F&& fn) {
  try {
    return fn();
  } catch (const ApiError&) {
    throw;
  } catch (const std::exception& e) {
    if (store::isUniqueViolation(e)) throw errors::conflict(kSlugTaken);
    throw;
  }
}

// A positive decimal id written with digits only ("-5", "+5", "5x" are not ids).
std::optional<std::int64_t> asId(const std::string& text) {
  if (text.empty() || text.front() < '0' || text.front() > '9') return std::nullopt;
  std::int64_t id = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), id);
  if (ec != std::errc() || end != text.data() + text.size() || id <= 0) return std::nullopt;
  return id;
}

}  // namespace

store::EnvironmentRecord EnvironmentService::create(std::int64_t orgId, const std::string& name,
                                                    const std::optional<std::string>& slug,
                                                    const audit::Actor& actor) {
  std::optional<std::string> trimmedName = name;
  normalizeAndValidate(trimmedName, slug);
  store::EnvironmentRecord env;
  env.orgId = orgId;
  env.name = *trimmedName;
  env.slug = slug ? *slug : environmentSlugFrom(env.name);
  if (env.slug.empty())
    throw errors::invalidField("body.slug", "is required when the name has no ASCII letter or digit to derive it from");
  env.createdAt = env.updatedAt = clock::nowMicros();
  return conflictOnDuplicateSlug([&] {
    return db_.transaction([&](store::Connection& c) {
      if (environments_.bySlug(c, orgId, env.slug)) throw errors::conflict(kSlugTaken);
      env.id = environments_.insert(c, env);
      audit_.record(c, orgId, actor,
                    audit::Change::of("environment", "create", env.id,
                                      audit::metadata({{"name", env.name}, {"slug", env.slug}})));
      return env;
    });
  });
}

std::vector<store::EnvironmentRecord> EnvironmentService::list(std::int64_t orgId) {
  auto c = db_.acquire();
  return environments_.list(*c, orgId);
}

store::EnvironmentRecord EnvironmentService::get(std::int64_t orgId, std::int64_t environmentId) {
  auto c = db_.acquire();
  auto env = environments_.byId(*c, orgId, environmentId);
  if (!env) throw errors::notFound("Environment");
  return *env;
}

store::EnvironmentRecord EnvironmentService::update(std::int64_t orgId, std::int64_t environmentId,
                                                    const EnvironmentPatch& patch, const audit::Actor& actor) {
  auto name = patch.name;
  normalizeAndValidate(name, patch.slug);
  return conflictOnDuplicateSlug([&] {
    return db_.transaction([&](store::Connection& c) {
      auto env = environments_.byId(c, orgId, environmentId);
      if (!env) throw errors::notFound("Environment");
      if (!name && !patch.slug) return *env;  // nothing to change
      if (patch.slug && *patch.slug != env->slug && environments_.bySlug(c, orgId, *patch.slug))
        throw errors::conflict(kSlugTaken);
      auto changes = audit::metadata({});
      if (name && *name != env->name) changes->set("name", audit::changed(env->name, *name));
      if (patch.slug && *patch.slug != env->slug) changes->set("slug", audit::changed(env->slug, *patch.slug));
      if (name) env->name = *name;
      if (patch.slug) env->slug = *patch.slug;
      env->updatedAt = clock::nowMicros();
      environments_.update(c, *env);
      audit_.record(c, orgId, actor, audit::Change::of("environment", "update", environmentId, changes));
      return *env;
    });
  });
}

void EnvironmentService::remove(std::int64_t orgId, std::int64_t environmentId, const audit::Actor& actor) {
  db_.transaction([&](store::Connection& c) {
    auto env = environments_.byId(c, orgId, environmentId);
    if (!env) throw errors::notFound("Environment");
    environments_.remove(c, orgId, environmentId);
    audit_.record(c, orgId, actor,
                  audit::Change::of("environment", "delete", environmentId,
                                    audit::metadata({{"name", env->name}, {"slug", env->slug}})));
  });
}

std::optional<store::EnvironmentRecord> EnvironmentService::resolve(std::int64_t orgId, const std::string& idOrSlug) {
  if (idOrSlug.empty()) return std::nullopt;
  auto c = db_.acquire();
  if (auto id = asId(idOrSlug))
    if (auto env = environments_.byId(*c, orgId, *id)) return env;
  // A slug may be all digits too ("2024"), so digits that are no id of ours fall through.
  return environments_.bySlug(*c, orgId, idOrSlug);
}

std::optional<std::vector<std::string>> EnvironmentService::eventValues(std::int64_t orgId,
                                                                        const std::optional<std::string>& idOrSlug) {
  if (!idOrSlug) return std::nullopt;
  if (auto env = resolve(orgId, *idOrSlug))
    return std::vector<std::string>{env->slug, env->name, std::to_string(env->id)};
  return std::vector<std::string>{*idOrSlug};
}

}  // namespace aev::identity
