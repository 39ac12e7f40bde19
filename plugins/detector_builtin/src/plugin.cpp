// detector_builtin: the moderation detectors agent-events ships, registered through the
// public SDK exactly as a third-party plugin would.
#include <agentevents/plugin.hpp>

#include "detectors.h"

namespace {

constexpr const char* kMinScoreSchema =
    R"({"type":"object","properties":{"minScore":{"type":"number","minimum":0,"maximum":1}},)"
    R"("additionalProperties":false})";

}  // namespace

AEV_PLUGIN("detector_builtin", "1.0.0", "agent-events",
           aev::detector<builtin::EmailDetector>("pii.email", "E-mail addresses", AEV_TARGET_ALL, kMinScoreSchema),
           aev::detector<builtin::PhoneDetector>("pii.phone", "Telephone numbers (national and international forms)",
                                                 AEV_TARGET_ALL, kMinScoreSchema),
           aev::detector<builtin::CreditCardDetector>("pii.credit_card",
                                                      "Payment card numbers (Luhn-checked, known issuer prefixes)",
                                                      AEV_TARGET_ALL, kMinScoreSchema),
           aev::detector<builtin::SsnDetector>("pii.ssn", "US Social Security numbers", AEV_TARGET_ALL,
                                               kMinScoreSchema),
           aev::detector<builtin::ApiKeyDetector>(
               "secrets.api_key", "API keys and tokens of AWS, GitHub, OpenAI, Anthropic, Slack, Stripe, Google",
               AEV_TARGET_ALL, kMinScoreSchema),
           aev::detector<builtin::PromptInjectionDetector>(
               "prompt_injection", "Prompt-injection and jailbreak phrasing, chat-template control tokens",
               AEV_TARGET_REQUEST | AEV_TARGET_TOOL_CALL, kMinScoreSchema))
