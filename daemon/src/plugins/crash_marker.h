#pragma once
// A crash names its plugin. The host marks every call into plugin code with a
// thread-local marker (which plugin, component, kind, call); a fatal signal (SIGSEGV,
// SIGBUS, SIGFPE, SIGILL, SIGABRT) raised while a marker is set writes one line to
// stderr (the journal under systemd), e.g.
//
//   agent-eventsd: fatal signal SIGSEGV during a plugin call: plugin=fixture_crash
//   kind=detector component=fixture.crash call=scan
//
// then the signal's default action (terminate with a core dump) is restored and the signal
// raised again, so the process still dies by that signal and systemd restarts it. A fatal
// signal outside plugin calls goes to whatever handled it before.
// The handler only reads the marker and calls writev(2), sigaction(2) and raise(3), all
// async-signal-safe; the strings it writes are formatted before the call, never in it.
#include <string_view>

namespace aev::plugins {

struct ComponentInfo;

// Writes the line for `sig` when the calling thread is inside a plugin call (the handler's
// first step; async-signal-safe).
void crashHandlerWrite(int sig);

// Installs the handler once per process (idempotent; the plugin host calls it).
void installCrashHandler();

// Marks the current thread as running `call` of `component` for the scope's lifetime.
// `call` must be a string literal; the component's strings must outlive the scope.
class CallScope {
 public:
  CallScope(const ComponentInfo& component, std::string_view call) noexcept;
  // During aev_plugin_register_v1, before the plugin has components.
  CallScope(const std::string& plugin, std::string_view call) noexcept;
  ~CallScope();
  // Whether the calling thread is inside a plugin call (async-signal-safe).
  static bool inCall() noexcept;
  CallScope(const CallScope&) = delete;
  CallScope& operator=(const CallScope&) = delete;

 private:
  struct Marker {
    std::string_view plugin, kind, component, call;
  };
  Marker marker_;
  const Marker* previous_;
  friend void crashHandlerWrite(int);
  static const Marker* current() noexcept;
};

}  // namespace aev::plugins
