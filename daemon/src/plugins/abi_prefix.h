#pragma once
// Reading a struct a plugin wrote, whatever SDK minor it was built with.
//
// Every ABI struct starts with its own size. A plugin built against SDK 1.0 declares the
// 1.0 size, one built against a later 1.x declares a larger one. The host accepts any size
// from the 1.0 size upward, copies only the bytes that size covers (never more than it
// knows itself) and leaves the fields the plugin's version lacks zero, so a 1.0 plugin
// loads into every 1.x daemon and no plugin can make the host read past its struct.
#include <agentevents/plugin_abi.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <optional>
#include <type_traits>

namespace aev::plugins {

// `declared` is the struct_size the plugin wrote; nullopt when it is below `minimum` (the
// struct's 1.0 size: every 1.0 field is part of the contract).
template <class T>
std::optional<T> readPrefix(const void* src, std::uint32_t declared, std::size_t minimum) {
  static_assert(std::is_trivially_copyable_v<T>);
  if (declared < minimum) return std::nullopt;
  T out{};
  std::memcpy(&out, src, std::min<std::size_t>(declared, sizeof out));
  return out;
}

// The struct_size field at the start of a plugin-written struct.
inline std::uint32_t declaredSize(const void* src) {
  std::uint32_t size = 0;
  std::memcpy(&size, src, sizeof size);
  return size;
}

}  // namespace aev::plugins
