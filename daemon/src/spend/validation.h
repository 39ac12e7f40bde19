#pragma once
// The value checks of a spend policy (docs/features.md#spend-policies), every problem at
// once with locations "body.<field>" / "body.rungs[i].<field>". Scope ids naming
// resources of the organization are checked by the service (they need the store).
#include <vector>

#include "common/errors.h"
#include "store/spend_policy_repository.h"

namespace aev::plugins {
class Registry;
}

namespace aev::spend {

// Trims the name. `registry` names the loaded alert sinks (destinationType); nullptr
// means none is loaded.
std::vector<FieldError> checkPolicy(store::SpendPolicyRecord& policy, const plugins::Registry* registry);

}  // namespace aev::spend
