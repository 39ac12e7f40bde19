#pragma once
// Shape rules for identity fields, shared by registration, invitations and orgs.
#include <string>

namespace aev::identity {

bool isValidEmail(const std::string& email);
bool isValidUsername(const std::string& username);  // 3..64 of [a-z0-9_.-], starts alphanumeric
bool isValidSlug(const std::string& slug);          // ^[a-z0-9][a-z0-9-]{0,62}$
bool isValidRole(const std::string& role);          // admin | user
std::string lower(const std::string& s);
// A slug derived from free text: lower-case, runs of other characters become '-'.
std::string slugify(const std::string& text);

inline constexpr const char* kRoleAdmin = "admin";
inline constexpr const char* kRoleUser = "user";

}  // namespace aev::identity
