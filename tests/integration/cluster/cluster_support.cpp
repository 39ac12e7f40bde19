#include "cluster_support.h"

#include <poll.h>

#include <algorithm>
#include <random>
#include <sstream>
#include <stdexcept>

#include "support/api_fixture.h"

namespace aev::testing::cluster {

// ---------------------------------------------------------------- cluster

Cluster::Cluster(Settings settings, std::size_t nodes) : alive_(nodes) {
  pg_ = std::make_unique<PostgresServer>(/*durableCommits=*/true);
  dbName_ = "aev_cluster";
  url_ = pg_->createDatabase(dbName_);
  for (std::size_t i = 0; i < nodes; ++i) {
    DaemonOptions o;
    o.databaseUrl = url_;
    o.config = settings;
    o.config["log.level"] = "info";
    nodes_.push_back(std::make_unique<DaemonProcess>(o));
  }
  // The first node creates the schema; the others start on it (in parallel they would
  // race for the migrations lock, which is fine too, but slower on a small machine).
  for (std::size_t i = 0; i < nodes; ++i) {
    nodes_[i]->start();
    alive_[i] = true;
  }
}

Cluster::~Cluster() {
  for (auto& n : nodes_)
    if (n->running()) n->stop();
}

void Cluster::kill(std::size_t i) {
  alive_.at(i) = false;
  nodes_.at(i)->kill();
}

HttpClient Cluster::client(std::size_t i, const std::string& bearer) const {
  auto c = nodes_.at(i)->client().withBearer(bearer);
  c.setTimeoutSeconds(10);
  return c;
}

void Cluster::setUp(std::size_t channelsPerOrg) {
  auto http = nodes_.at(0)->client();
  for (int a = 0; a < 2; ++a) {
    Account acc;
    std::random_device rd;
    acc.username = "cluster_" + std::to_string(a) + "_" + std::to_string(rd() % 1000000);
    acc.password = "pw-cluster-" + acc.username;
    auto r = http.post(
        "/auth/register",
        obj({{"email", acc.username + "@example.test"}, {"username", acc.username}, {"password", acc.password}}));
    if (r.status != 201) throw std::runtime_error("register: " + r.describe());
    acc.userId = intField(r.object(), "id");
    acc.orgId = intField(r.object(), "organizationId");
    auto login = http.post("/auth/login", obj({{"login", acc.username}, {"password", acc.password}}));
    if (login.status != 200) throw std::runtime_error("login: " + login.describe());
    acc.accessToken = strField(login.object(), "access_token");
    acc.refreshToken = strField(login.object(), "refresh_token");
    // Apps and channels through another node: the token is node 0's.
    auto other = client(1 % nodes_.size(), acc.accessToken).withHeader("x-tenant-id", std::to_string(acc.orgId));
    auto app = other.post("/apps", obj({{"name", "cluster-app"}}));
    if (app.status != 201) throw std::runtime_error("create app: " + app.describe());
    const auto appId = intField(app.object(), "id");
    for (std::size_t c = 0; c < channelsPerOrg; ++c) {
      auto ch = other.post("/apps/" + std::to_string(appId) + "/channels", obj({{"name", "ch-" + std::to_string(c)}}));
      if (ch.status != 201) throw std::runtime_error("create channel: " + ch.describe());
      acc.channels.push_back(intField(ch.object(), "id"));
    }
    accounts_.push_back(std::move(acc));
  }
}

const Account& Cluster::accountOf(std::int64_t channel) const {
  for (const auto& a : accounts_)
    for (auto c : a.channels)
      if (c == channel) return a;
  throw std::logic_error("no account holds channel " + std::to_string(channel));
}

std::map<std::int64_t, std::vector<std::int64_t>> Cluster::storedIds() {
  std::map<std::int64_t, std::vector<std::int64_t>> out;
  std::istringstream rows(sql("SELECT channel_id || ' ' || seq || ' ' || id FROM events ORDER BY channel_id, seq"));
  std::int64_t channel, seq, id;
  std::map<std::int64_t, std::int64_t> lastSeq;
  while (rows >> channel >> seq >> id) {
    // The seq range of a channel is gapless: the oracle relies on it, so check it too.
    if (seq != ++lastSeq[channel])
      throw std::runtime_error("channel " + std::to_string(channel) + " has a seq gap at " + std::to_string(seq));
    out[channel].push_back(id);
  }
  return out;
}

// ---------------------------------------------------------------- publishers

Publishers::Publishers(Cluster& cluster, std::vector<std::int64_t> channels, std::size_t perNode,
                       std::size_t eventsEach)
    : cluster_(cluster), channels_(std::move(channels)), perNode_(perNode), eventsEach_(eventsEach) {}

Publishers::~Publishers() { join(); }

void Publishers::start() {
  for (std::size_t node = 0; node < cluster_.size(); ++node)
    for (std::size_t i = 0; i < perNode_; ++i) threads_.emplace_back([this, node, i] { run(node, i); });
}

void Publishers::join() {
  for (auto& t : threads_)
    if (t.joinable()) t.join();
  threads_.clear();
}

void Publishers::run(std::size_t home, std::size_t index) {
  std::mt19937 rng(static_cast<unsigned>(home * 1000 + index));
  std::size_t node = home;
  const auto deadline = std::chrono::steady_clock::now() + 120s;
  for (std::size_t n = 0; n < eventsEach_ && std::chrono::steady_clock::now() < deadline;) {
    const auto channel = channels_[rng() % channels_.size()];
    const auto& acc = cluster_.accountOf(channel);
    if (!cluster_.alive(node)) node = (node + 1) % cluster_.size();
    bool ok = false;
    try {
      auto http = cluster_.client(node, acc.accessToken).withHeader("x-tenant-id", std::to_string(acc.orgId));
      auto r = http.post(
          "/event",
          obj({{"identifier", "p" + std::to_string(home) + "-" + std::to_string(index) + "-" + std::to_string(n)},
               {"channel_id", channel},
               {"payload", obj({{"n", static_cast<Poco::Int64>(n)}})}}));
      ok = r.status == 201;
    } catch (const std::exception&) {
      // connection refused or cut: the node is gone or the store is restarting
    }
    if (ok) {
      ++n;
      published_.fetch_add(1);
      continue;
    }
    failures_.fetch_add(1);
    node = (node + 1) % cluster_.size();
    std::this_thread::sleep_for(50ms);  // back off from a node or store that is down
  }
}

// ---------------------------------------------------------------- subscribers

Subscribers::~Subscribers() { stop(); }

void Subscribers::add(std::size_t node, std::int64_t channel) {
  auto s = std::make_unique<Sub>();
  s->node = node;
  s->channel = channel;
  s->bearer = "Bearer " + cluster_.accountOf(channel).accessToken;
  open(*s);
  if (!s->stream->waitHead(10s) || s->stream->status() != 200 ||
      !s->stream->waitUntil([&] { return !s->stream->parser().retries.empty(); }, 10s))
    throw std::runtime_error("subscribe: " + s->stream->describe());
  subs_.push_back(std::move(s));
}

void Subscribers::open(Sub& s) {
  s.stream = std::make_unique<SseStream>("127.0.0.1", cluster_.node(s.node).port());
  Headers h{{"Authorization", s.bearer}};
  {
    std::lock_guard lock(mutex_);
    if (!s.ids.empty())
      h.emplace_back("Last-Event-ID", std::to_string(s.ids.back()));
    else if (s.stream)
      s.resumedWithoutId = true;
  }
  s.stream->start("/channel/" + std::to_string(s.channel) + "/subscribe", h);
}

void Subscribers::drain(Sub& s) {
  auto& messages = s.stream->parser().messages;
  std::lock_guard lock(mutex_);
  while (!messages.empty()) {
    auto m = std::move(messages.front());
    messages.pop_front();
    if (!m.event.empty()) {
      s.anomalies.push_back("event: " + m.event + " " + m.data);
      continue;
    }
    try {
      s.ids.push_back(m.numericId());
    } catch (const std::exception& e) {
      s.anomalies.push_back(std::string("bad id: ") + e.what());
    }
  }
}

void Subscribers::start() {
  stopping_ = false;
  thread_ = std::thread([this] { run(); });
}

void Subscribers::stop() {
  stopping_ = true;
  if (thread_.joinable()) thread_.join();
}

void Subscribers::run() {
  std::vector<pollfd> fds;
  std::vector<Sub*> owners;
  while (!stopping_) {
    fds.clear();
    owners.clear();
    const auto now = std::chrono::steady_clock::now();
    for (auto& s : subs_) {
      if (s->stream->closed()) {
        drain(*s);
        if (s->retryAt == std::chrono::steady_clock::time_point{}) {
          s->retryAt = now + 100ms;  // as an EventSource waits before reconnecting
          continue;
        }
        if (now < s->retryAt) continue;
        s->retryAt = {};
        // Its node is gone: resume on the next live one.
        for (std::size_t k = 0; k < cluster_.size() && !cluster_.alive(s->node); ++k)
          s->node = (s->node + 1) % cluster_.size();
        reconnects_.fetch_add(1);
        open(*s);
      }
      fds.push_back({s->stream->fd(), static_cast<short>(POLLIN | (s->stream->wantsWrite() ? POLLOUT : 0)), 0});
      owners.push_back(s.get());
    }
    if (::poll(fds.data(), fds.size(), 20) < 0) continue;
    for (std::size_t i = 0; i < fds.size(); ++i) {
      auto& s = *owners[i];
      if (fds[i].revents & POLLOUT) s.stream->onWritable();
      if (fds[i].revents & (POLLIN | POLLHUP | POLLERR)) s.stream->onReadable();
      drain(s);
    }
  }
}

bool Subscribers::waitCaughtUp(const std::map<std::int64_t, std::vector<std::int64_t>>& stored,
                               std::chrono::milliseconds timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  for (;;) {
    bool all = true;
    {
      std::lock_guard lock(mutex_);
      for (const auto& s : subs_) {
        auto it = stored.find(s->channel);
        const auto want = it == stored.end() ? std::int64_t{0} : it->second.back();
        const auto have = s->ids.empty() ? std::int64_t{0} : s->ids.back();
        if (have != want) all = false;
      }
    }
    if (all) return true;
    if (std::chrono::steady_clock::now() >= deadline) return false;
    std::this_thread::sleep_for(20ms);  // polling a condition, not waiting for time
  }
}

::testing::AssertionResult Subscribers::exact(const std::map<std::int64_t, std::vector<std::int64_t>>& stored) {
  std::lock_guard lock(mutex_);
  std::ostringstream problems;
  std::size_t bad = 0;
  for (const auto& s : subs_) {
    auto it = stored.find(s->channel);
    std::vector<std::int64_t> want = it == stored.end() ? std::vector<std::int64_t>{} : it->second;
    if (s->resumedWithoutId && !s->ids.empty()) {  // exact from its first event on
      auto first = std::find(want.begin(), want.end(), s->ids.front());
      want.erase(want.begin(), first);
    }
    if (s->ids == want && s->anomalies.empty()) continue;
    if (++bad > 5) continue;
    problems << "\n  subscriber of channel " << s->channel << " (now on node " << s->node << "): received "
             << s->ids.size() << " events, the store holds " << want.size();
    std::size_t k = 0;
    while (k < s->ids.size() && k < want.size() && s->ids[k] == want[k]) ++k;
    if (k < s->ids.size() || k < want.size())
      problems << "; first difference at position " << k << ": got "
               << (k < s->ids.size() ? std::to_string(s->ids[k]) : "nothing") << ", want "
               << (k < want.size() ? std::to_string(want[k]) : "nothing");
    for (const auto& a : s->anomalies) problems << "; " << a;
  }
  if (bad == 0) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << bad << " of " << subs_.size()
                                       << " subscribers differ from the store:" << problems.str();
}

}  // namespace aev::testing::cluster
