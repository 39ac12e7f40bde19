#include "common/blocking_hint.h"

namespace aev {
namespace {

thread_local BlockingHint::Handler tHandler = nullptr;
thread_local void* tContext = nullptr;

}  // namespace

void BlockingHint::setHandler(Handler handler, void* context) {
  tHandler = handler;
  tContext = context;
}

void BlockingHint::aboutToBlock() {
  if (tHandler) tHandler(tContext);
}

}  // namespace aev
