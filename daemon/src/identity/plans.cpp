#include "identity/plans.h"

#include <stdexcept>

namespace aev::identity {

PlanCatalog::PlanCatalog(std::map<std::string, Plan> plans, std::string defaultPlan)
    : plans_(std::move(plans)), default_(std::move(defaultPlan)) {
  if (!plans_.count(default_)) throw std::invalid_argument("plans.default names an unknown plan: " + default_);
}

const Plan& PlanCatalog::get(const std::string& name) const {
  auto it = plans_.find(name);
  return it != plans_.end() ? it->second : plans_.at(default_);
}

}  // namespace aev::identity
