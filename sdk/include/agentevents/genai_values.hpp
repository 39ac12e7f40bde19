// GenAI value vocabularies, normalised: the provider id and the finish reason of an LLM call
// spelled one way whatever convention or client sent them. The daemon applies these at
// ingest to every event (POST /event metadata and OTLP spans alike) before it groups by
// them, and the standard dimension plugin applies the same functions, so a breakdown never
// shows "openai" and "OpenAI" as two providers. The value as sent stays in the event's
// metadata. Header-only, no dependencies; usable from any plugin.
//
// Providers take the OpenTelemetry GenAI registry's ids (gen_ai.provider.name: openai,
// anthropic, x_ai, mistral_ai, azure.ai.openai, aws.bedrock, gcp.vertex_ai, ...): lower case,
// without the Vercel AI SDK's API suffix ("openai.chat" → "openai"), aliases mapped.
// Finish reasons take the OpenTelemetry enum where one value means the same (stop, length,
// content_filter, tool_call, error): OpenAI's tool_calls, the AI SDK's tool-calls and
// content-filter, Anthropic's end_turn / stop_sequence / max_tokens / tool_use and
// Gemini's STOP / MAX_TOKENS / SAFETY; anything else is kept, in lower case.
#pragma once

#include <iterator>
#include <string>
#include <string_view>

namespace aev::genai {

namespace detail {

inline std::string lowered(std::string_view text) {
  std::string out(text);
  for (auto& c : out)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  return out;
}

struct Alias {
  std::string_view from, to;
};

inline std::string mapped(std::string value, const Alias* begin, const Alias* end) {
  for (const Alias* a = begin; a != end; ++a)
    if (value == a->from) return std::string(a->to);
  return value;
}

}  // namespace detail

// "openai.chat" → "openai": the AI SDK names the API after a dot. OTel ids that have dots
// of their own ("azure.ai.openai", "aws.bedrock") are left whole.
inline std::string withoutApiSuffix(std::string id) {
  for (std::string_view api :
       {".chat", ".responses", ".completion", ".embedding", ".image", ".transcription", ".speech", ".messages"}) {
    if (id.size() > api.size() && id.compare(id.size() - api.size(), api.size(), api) == 0) {
      id.resize(id.size() - api.size());
      break;
    }
  }
  return id;
}

inline std::string providerId(std::string_view sent) {
  static constexpr detail::Alias kAliases[] = {
      {"xai", "x_ai"},
      {"mistralai", "mistral_ai"},
      {"mistral", "mistral_ai"},
      {"az.ai.openai", "azure.ai.openai"},
      {"az.ai.inference", "azure.ai.inference"},
      {"azure-openai", "azure.ai.openai"},
      {"azure", "azure.ai.openai"},
      {"vertex_ai", "gcp.vertex_ai"},
      {"vertexai", "gcp.vertex_ai"},
      {"gemini", "gcp.gemini"},
      {"amazon-bedrock", "aws.bedrock"},
      {"bedrock", "aws.bedrock"},
  };
  return detail::mapped(withoutApiSuffix(detail::lowered(sent)), std::begin(kAliases), std::end(kAliases));
}

inline std::string finishReason(std::string_view sent) {
  static constexpr detail::Alias kAliases[] = {
      {"end_turn", "stop"},         {"stop_sequence", "stop"},
      {"max_tokens", "length"},     {"tool_calls", "tool_call"},
      {"tool-calls", "tool_call"},  {"function_call", "tool_call"},
      {"tool_use", "tool_call"},    {"content-filter", "content_filter"},
      {"safety", "content_filter"},
  };
  return detail::mapped(detail::lowered(sent), std::begin(kAliases), std::end(kAliases));
}

}  // namespace aev::genai
