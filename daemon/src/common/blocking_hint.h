#pragma once
// A thread about to wait for something slow (a PostgreSQL round trip, a commit's fsync,
// a group commit it handed its events to) says so, so that the pool the thread belongs
// to can let another of its threads run meanwhile (the HTTP front end's gate,
// http/waiter_gate.h). A pool sets a handler for each of its threads; on any other
// thread the hint is a thread-local load and nothing else.
namespace aev {

class BlockingHint {
 public:
  using Handler = void (*)(void* context);
  // For the calling thread; nullptr clears it.
  static void setHandler(Handler handler, void* context);
  static void aboutToBlock();
};

}  // namespace aev
