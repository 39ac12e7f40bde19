#pragma once
// The daemon's shutdown signals, owned by the main thread.
//
// A process-directed SIGTERM goes to any thread that does not block it. Poco's own
// threads block it, but ours (the HTTP front end, the event writer, the hub, ...) are
// std::threads: had they inherited an open mask, a SIGTERM arriving while the main
// thread was not inside sigwait — during start-up, or between the "listening" line and
// the wait — would take its default action and kill the process (exit by signal 15,
// nothing drained). So the signals are blocked before any thread starts, every thread
// inherits that, and they stay pending until the main thread waits for them.
#include <chrono>
#include <functional>

namespace aev::app {

// Blocks SIGINT, SIGTERM and SIGQUIT in the calling thread (and so in every thread it
// starts afterwards) and ignores SIGPIPE: a write to a closed socket is an error to
// handle, never the end of the process.
void blockTerminationSignals();

// Waits until one of the blocked signals arrives (or is already pending) and returns it.
int waitForTerminationSignal();
// The same, calling `tick` on this thread each time `every` passes without a signal
// (the systemd watchdog's heartbeat).
int waitForTerminationSignal(std::chrono::milliseconds every, const std::function<void()>& tick);

}  // namespace aev::app
