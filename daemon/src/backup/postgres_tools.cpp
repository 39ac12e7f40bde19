#include "backup/postgres_tools.h"

#include <Poco/Pipe.h>
#include <Poco/PipeStream.h>
#include <Poco/Process.h>

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <sstream>
#include <stdexcept>
#include <vector>

namespace aev::backup {

namespace {

// "15" from /usr/lib/postgresql/15/bin; 0 when the directory name is not a number.
int majorOf(const std::filesystem::path& binDir) {
  try {
    return std::stoi(binDir.parent_path().filename().string());
  } catch (const std::exception&) {
    return 0;
  }
}

void run(const std::string& tool, const std::vector<std::string>& args) {
  Poco::Pipe errors;
  auto handle = Poco::Process::launch(tool, args, nullptr, nullptr, &errors);
  Poco::PipeInputStream err(errors);
  std::ostringstream text;
  text << err.rdbuf();
  const int code = handle.wait();
  if (code != 0) {
    auto message = text.str();
    while (!message.empty() && (message.back() == '\n' || message.back() == ' ')) message.pop_back();
    throw std::runtime_error(std::filesystem::path(tool).filename().string() + " failed (exit " + std::to_string(code) +
                             "): " + message);
  }
}

}  // namespace

std::string postgresTool(const std::string& tool) {
  std::filesystem::path best;
  int bestMajor = -1;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator("/usr/lib/postgresql", ec)) {
    const auto bin = entry.path() / "bin";
    if (std::filesystem::exists(bin / tool) && majorOf(bin) > bestMajor) {
      best = bin / tool;
      bestMajor = majorOf(bin);
    }
  }
  if (!best.empty()) return best.string();
  if (const char* path = std::getenv("PATH")) {
    std::istringstream dirs(path);
    for (std::string dir; std::getline(dirs, dir, ':');)
      if (!dir.empty() && ::access((std::filesystem::path(dir) / tool).c_str(), X_OK) == 0)
        return (std::filesystem::path(dir) / tool).string();
  }
  throw std::runtime_error(tool + " is not installed (Debian: apt-get install postgresql-client)");
}

void dumpDatabase(const std::string& conninfo, const std::string& file) {
  run(postgresTool("pg_dump"), {"--format=custom", "--no-password", "--file=" + file, "--dbname=" + conninfo});
}

void restoreDatabase(const std::string& conninfo, const std::string& file) {
  run(postgresTool("pg_restore"), {"--single-transaction", "--exit-on-error", "--no-owner", "--no-privileges",
                                   "--no-password", "--dbname=" + conninfo, file});
}

}  // namespace aev::backup
