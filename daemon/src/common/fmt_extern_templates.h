// Build time only (issue 29): tells every translation unit that includes it that fmt's
// formatting engine, detail::vformat_to<char>, is already compiled in libfmt (Debian's
// libfmt9 exports that instantiation), so the compiler does not instantiate and optimise it
// again. Every spdlog call (spdlog::info("... {}", x)) reaches it; without this
// declaration each translation unit compiled it and everything it pulls in (the float
// writers, dragonbox, the integer writers): about 4 CPU-seconds per file at -O2, half of a
// small unity batch (bench/NOTEBOOK.md, 2026-11-28). The code that runs is the same
// function, from the shared library instead of an inline copy.
//
// Part of the core library's precompiled header (daemon/CMakeLists.txt); only for fmt 9
// as a shared library (fmt 10 and later declare it themselves; a header-only fmt has no
// compiled copy to use).
#pragma once

#include <spdlog/fmt/fmt.h>

#if defined(SPDLOG_FMT_EXTERNAL) && !defined(FMT_HEADER_ONLY) && FMT_VERSION >= 90000 && FMT_VERSION < 100000
FMT_BEGIN_NAMESPACE
namespace detail {
extern template FMT_API void vformat_to(buffer<char>&, string_view, basic_format_args<FMT_BUFFER_CONTEXT(char)>,
                                        locale_ref);
}  // namespace detail
FMT_END_NAMESPACE
#endif
