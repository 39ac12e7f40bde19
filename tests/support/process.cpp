#include "support/process.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <system_error>
#include <thread>

extern char** environ;

namespace aev::testing {

namespace {
std::vector<char*> cArgv(const std::vector<std::string>& args) {
  std::vector<char*> out;
  out.reserve(args.size() + 1);
  for (const auto& a : args) out.push_back(const_cast<char*>(a.c_str()));
  out.push_back(nullptr);
  return out;
}

ExitStatus decode(int status) {
  ExitStatus s;
  if (WIFEXITED(status)) {
    s.exited = true;
    s.code = WEXITSTATUS(status);
  } else if (WIFSIGNALED(status)) {
    s.signal = WTERMSIG(status);
  }
  return s;
}

pid_t spawnWithFds(const std::vector<std::string>& argv, int outFd,
                   const std::optional<std::vector<std::string>>& environment) {
  if (argv.empty()) throw std::invalid_argument("spawn: empty argv");
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, outFd, 1);
  posix_spawn_file_actions_adddup2(&actions, outFd, 2);
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  // Default signal dispositions and an empty mask in the child, whatever the test
  // runner's threads have set up.
  sigset_t all, none;
  sigfillset(&all);
  sigemptyset(&none);
  posix_spawnattr_setsigdefault(&attr, &all);
  posix_spawnattr_setsigmask(&attr, &none);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK);

  auto args = cArgv(argv);
  std::vector<char*> envp;
  if (environment) envp = cArgv(*environment);
  pid_t pid = 0;
  int rc = posix_spawnp(&pid, argv[0].c_str(), &actions, &attr, args.data(), environment ? envp.data() : environ);
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attr);
  if (rc != 0) throw std::runtime_error("cannot start " + argv[0] + ": " + std::strerror(rc));
  return pid;
}
}  // namespace

// ---------------------------------------------------------------- TempDir

TempDir::TempDir(const std::string& prefix) {
  const char* base = std::getenv("TMPDIR");
  std::string tmpl = std::string(base && *base ? base : "/tmp") + "/" + prefix + "-XXXXXX";
  std::vector<char> buf(tmpl.begin(), tmpl.end());
  buf.push_back('\0');
  if (!mkdtemp(buf.data())) throw std::system_error(errno, std::generic_category(), "mkdtemp " + tmpl);
  path_ = buf.data();
}

TempDir::~TempDir() {
  const char* keep = std::getenv("AEV_KEEP_TEMP");
  if (keep && std::string(keep) == "1") return;
  std::error_code ec;
  std::filesystem::remove_all(path_, ec);
}

// ---------------------------------------------------------------- processes

std::string ExitStatus::describe() const {
  if (exited) return "exit code " + std::to_string(code);
  if (signal) return std::string("killed by signal ") + std::to_string(signal) + " (" + strsignal(signal) + ")";
  return "unknown status";
}

std::vector<std::string> childEnvironment(const std::vector<std::string>& dropPrefixes,
                                          const std::map<std::string, std::string>& extra) {
  std::vector<std::string> out;
  for (char** e = environ; e && *e; ++e) {
    std::string entry = *e;
    std::string name = entry.substr(0, entry.find('='));
    bool drop = extra.count(name) > 0;
    for (const auto& p : dropPrefixes)
      if (name.rfind(p, 0) == 0) drop = true;
    if (!drop) out.push_back(entry);
  }
  for (const auto& [k, v] : extra) out.push_back(k + "=" + v);
  return out;
}

pid_t spawnProcess(const std::vector<std::string>& argv, const std::string& logPath,
                   const std::optional<std::vector<std::string>>& environment) {
  int fd = ::open(logPath.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (fd < 0) throw std::system_error(errno, std::generic_category(), "open " + logPath);
  try {
    pid_t pid = spawnWithFds(argv, fd, environment);
    ::close(fd);
    return pid;
  } catch (...) {
    ::close(fd);
    throw;
  }
}

std::optional<ExitStatus> pollExit(pid_t pid) {
  int status = 0;
  pid_t r = ::waitpid(pid, &status, WNOHANG);
  if (r == pid) return decode(status);
  if (r < 0 && errno == ECHILD) return ExitStatus{};  // already reaped or not ours
  return std::nullopt;
}

std::optional<ExitStatus> waitExit(pid_t pid, std::chrono::milliseconds timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  for (;;) {
    if (auto s = pollExit(pid)) return s;
    if (std::chrono::steady_clock::now() >= deadline) return std::nullopt;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
}

CommandResult runCommand(const std::vector<std::string>& argv, std::chrono::milliseconds timeout) {
  // Output goes to an unlinked temporary file rather than a pipe: a daemon the command
  // leaves behind (pg_ctl start) must not hold our reader open.
  const char* base = std::getenv("TMPDIR");
  std::string tmpl = std::string(base && *base ? base : "/tmp") + "/aev-cmd-XXXXXX";
  std::vector<char> name(tmpl.begin(), tmpl.end());
  name.push_back('\0');
  int fd = ::mkostemp(name.data(), O_CLOEXEC);
  if (fd < 0) throw std::system_error(errno, std::generic_category(), "mkstemp " + tmpl);
  ::unlink(name.data());
  auto readAll = [fd] {
    std::string out;
    ::lseek(fd, 0, SEEK_SET);
    char buf[4096];
    for (;;) {
      ssize_t n = ::read(fd, buf, sizeof buf);
      if (n > 0) out.append(buf, static_cast<std::size_t>(n));
      else if (n < 0 && errno == EINTR) continue;
      else break;
    }
    return out;
  };
  pid_t pid;
  try {
    pid = spawnWithFds(argv, fd, std::nullopt);
  } catch (...) {
    ::close(fd);
    throw;
  }
  auto status = waitExit(pid, timeout);
  if (!status) {
    ::kill(pid, SIGKILL);
    waitExit(pid, std::chrono::seconds(10));
    auto output = readAll();
    ::close(fd);
    throw std::runtime_error("timed out: " + joinArgv(argv) + "\n" + output);
  }
  auto output = readAll();
  ::close(fd);
  return {*status, output};
}

// ---------------------------------------------------------------- ports and files

int freeLoopbackPort() {
  int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) throw std::system_error(errno, std::generic_category(), "socket");
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = 0;
  if (::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
    int err = errno;
    ::close(fd);
    throw std::system_error(err, std::generic_category(), "bind 127.0.0.1:0");
  }
  socklen_t len = sizeof addr;
  ::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len);
  ::close(fd);
  return ntohs(addr.sin_port);
}

std::string readFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

void writeFile(const std::string& path, const std::string& content) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) throw std::runtime_error("cannot write " + path);
  out << content;
}

std::string tailOfFile(const std::string& path, std::size_t lines) {
  std::ifstream in(path);
  if (!in) return "";
  std::deque<std::string> last;
  std::string line;
  while (std::getline(in, line)) {
    last.push_back(line);
    if (last.size() > lines) last.pop_front();
  }
  std::string out;
  for (const auto& l : last) out += l + "\n";
  return out;
}

std::string joinArgv(const std::vector<std::string>& argv) {
  std::string out;
  for (const auto& a : argv) out += (out.empty() ? "" : " ") + a;
  return out;
}

}  // namespace aev::testing
