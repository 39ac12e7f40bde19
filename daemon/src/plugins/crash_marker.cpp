#include "plugins/crash_marker.h"

#include <signal.h>
#include <sys/uio.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstring>
#include <mutex>

#include "plugins/components.h"

namespace aev::plugins {

namespace {

// Trivially initialised, so no TLS wrapper runs inside the handler.
thread_local const void* tCurrent = nullptr;

constexpr std::array<int, 5> kCrashSignals = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT};
struct sigaction gPrevious[5];

int slotOf(int sig) {
  for (std::size_t i = 0; i < kCrashSignals.size(); ++i)
    if (kCrashSignals[i] == sig) return static_cast<int>(i);
  return -1;
}

const char* signalName(int sig) {
  switch (sig) {
    case SIGSEGV:
      return "SIGSEGV";
    case SIGBUS:
      return "SIGBUS";
    case SIGFPE:
      return "SIGFPE";
    case SIGILL:
      return "SIGILL";
    case SIGABRT:
      return "SIGABRT";
  }
  return "signal";
}

iovec piece(const char* s) { return iovec{const_cast<char*>(s), std::strlen(s)}; }
iovec piece(std::string_view s) { return iovec{const_cast<char*>(s.data()), s.size()}; }

void onFatalSignal(int sig, siginfo_t*, void*) {
  const bool inPlugin = CallScope::inCall();
  crashHandlerWrite(sig);
  // In a plugin call: the default action (core dump), so the process ends by this very
  // signal and systemd restarts it. Elsewhere: whatever handled it before us. Then the
  // signal again; for a fault, returning re-runs the faulting instruction.
  const int slot = slotOf(sig);
  if (inPlugin || slot < 0) {
    struct sigaction dfl {};
    dfl.sa_handler = SIG_DFL;
    sigemptyset(&dfl.sa_mask);
    sigaction(sig, &dfl, nullptr);
  } else {
    sigaction(sig, &gPrevious[slot], nullptr);
  }
  raise(sig);
}

}  // namespace

void crashHandlerWrite(int sig) {
  const auto* m = CallScope::current();
  if (!m) return;
  const int saved = errno;
  std::array<iovec, 11> line = {piece("agent-eventsd: fatal signal "),
                                piece(signalName(sig)),
                                piece(" during a plugin call: plugin="),
                                piece(m->plugin),
                                piece(" kind="),
                                piece(m->kind),
                                piece(" component="),
                                piece(m->component),
                                piece(" call="),
                                piece(m->call),
                                piece("\n")};
  ssize_t ignored = writev(STDERR_FILENO, line.data(), static_cast<int>(line.size()));
  (void)ignored;
  errno = saved;
}

void installCrashHandler() {
  static std::once_flag once;
  std::call_once(once, [] {
    for (std::size_t i = 0; i < kCrashSignals.size(); ++i) {
      struct sigaction sa {};
      sa.sa_sigaction = &onFatalSignal;
      sa.sa_flags = SA_SIGINFO;
      sigemptyset(&sa.sa_mask);
      sigaction(kCrashSignals[i], &sa, &gPrevious[i]);
    }
  });
}

CallScope::CallScope(const ComponentInfo& component, std::string_view call) noexcept
    : marker_{component.plugin, kindName(component.kind), component.name, call},
      previous_(static_cast<const Marker*>(tCurrent)) {
  tCurrent = &marker_;
}

CallScope::CallScope(const std::string& plugin, std::string_view call) noexcept
    : marker_{plugin, "plugin", "-", call}, previous_(static_cast<const Marker*>(tCurrent)) {
  tCurrent = &marker_;
}

CallScope::~CallScope() { tCurrent = previous_; }

const CallScope::Marker* CallScope::current() noexcept { return static_cast<const Marker*>(tCurrent); }

bool CallScope::inCall() noexcept { return tCurrent != nullptr; }

}  // namespace aev::plugins
