#pragma once
// Child processes for tests, without a shell: spawn with output redirected to a file,
// run to completion capturing output, temp directories, free loopback ports.
#include <sys/types.h>

#include <chrono>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace aev::testing {

// A fresh directory under $TMPDIR (or /tmp), removed in the destructor unless
// AEV_KEEP_TEMP=1 is set (useful to inspect a failed run).
class TempDir {
 public:
  explicit TempDir(const std::string& prefix = "aev-test");
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::string& path() const { return path_; }
  std::string file(const std::string& name) const { return path_ + "/" + name; }

 private:
  std::string path_;
};

struct ExitStatus {
  bool exited = false;  // normal exit (code valid)
  int code = -1;        // exit code when exited
  int signal = 0;       // terminating signal otherwise
  std::string describe() const;
};

// The current environment, minus variables whose name starts with any of dropPrefixes,
// plus/overridden by extra.
std::vector<std::string> childEnvironment(const std::vector<std::string>& dropPrefixes,
                                          const std::map<std::string, std::string>& extra = {});

// Starts argv[0] (a path, or a name looked up in PATH) with stdin from /dev/null and
// stdout+stderr appended to logPath. Throws std::runtime_error when it cannot start.
pid_t spawnProcess(const std::vector<std::string>& argv, const std::string& logPath,
                   const std::optional<std::vector<std::string>>& environment = std::nullopt);

// Non-blocking check: the exit status if the child has ended (and is reaped).
std::optional<ExitStatus> pollExit(pid_t pid);
// Waits up to timeout; std::nullopt if it is still running.
std::optional<ExitStatus> waitExit(pid_t pid, std::chrono::milliseconds timeout);

struct CommandResult {
  ExitStatus status;
  std::string output;  // stdout and stderr interleaved
  bool ok() const { return status.exited && status.code == 0; }
};
// Runs a command to completion (killing it after timeout) and captures its output.
CommandResult runCommand(const std::vector<std::string>& argv,
                         std::chrono::milliseconds timeout = std::chrono::seconds(120));

// A TCP port on 127.0.0.1 that was free a moment ago (bind to port 0, read it back).
int freeLoopbackPort();

std::string readFile(const std::string& path);
void writeFile(const std::string& path, const std::string& content);
// The last `lines` lines of a file ("" when it does not exist).
std::string tailOfFile(const std::string& path, std::size_t lines = 60);
std::string joinArgv(const std::vector<std::string>& argv);

}  // namespace aev::testing
