#include "app/termination_signals.h"

#include <pthread.h>

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <system_error>

namespace aev::app {
namespace {

sigset_t terminationSet() {
  sigset_t set;
  sigemptyset(&set);
  // As Poco's ServerApplication: with POCO_ENABLE_DEBUGGER set, SIGINT stays the
  // debugger's.
  if (!std::getenv("POCO_ENABLE_DEBUGGER")) sigaddset(&set, SIGINT);
  sigaddset(&set, SIGTERM);
  sigaddset(&set, SIGQUIT);
  return set;
}

}  // namespace

void blockTerminationSignals() {
  const sigset_t set = terminationSet();
  if (const int rc = pthread_sigmask(SIG_BLOCK, &set, nullptr); rc != 0)
    throw std::system_error(rc, std::generic_category(), "pthread_sigmask");
  std::signal(SIGPIPE, SIG_IGN);
}

int waitForTerminationSignal() {
  const sigset_t set = terminationSet();
  int signal = 0;
  while (sigwait(&set, &signal) != 0) {
  }
  return signal;
}

int waitForTerminationSignal(std::chrono::milliseconds every, const std::function<void()>& tick) {
  const sigset_t set = terminationSet();
  const auto seconds = std::chrono::duration_cast<std::chrono::seconds>(every);
  const timespec timeout{static_cast<time_t>(seconds.count()),
                         static_cast<long>(std::chrono::nanoseconds(every - seconds).count())};
  for (;;) {
    const int signal = sigtimedwait(&set, nullptr, &timeout);
    if (signal > 0) return signal;
    if (errno == EAGAIN) tick();  // the interval passed with no signal (EINTR: wait again)
  }
}

}  // namespace aev::app
