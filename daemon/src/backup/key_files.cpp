#include "backup/key_files.h"

#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <stdexcept>

namespace aev::backup {

namespace fs = std::filesystem;

namespace {

struct Key {
  const char* file;       // its name in a data dir and in a backup
  const char* configKey;  // where the configuration may carry it inline ("" when never)
  const char* losingItMeans;
};

const Key kKeys[] = {
    {"jwt.secret", "auth.jwt_secret", "sessions and stream tokens issued before the backup stop working"},
    {"webhook-secrets.key", "webhooks.secret_key", "the backup's webhook secrets cannot be unsealed"},
    {"audit-signing.key", "", "signed audit checkpoints cannot be verified"},
};

std::optional<std::string> readTrimmed(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::stringstream ss;
  ss << in.rdbuf();
  auto text = ss.str();
  while (!text.empty() && (text.back() == '\n' || text.back() == '\r')) text.pop_back();
  return text;
}

void writePrivate(const fs::path& path, const std::string& value) {
  const auto tmp = path.string() + ".tmp";
  {
    std::ofstream out(tmp, std::ios::trunc | std::ios::binary);
    out << value << '\n';
    if (!out) throw std::runtime_error("cannot write " + tmp);
  }
  ::chmod(tmp.c_str(), 0600);
  fs::rename(tmp, path);
}

// Where this configuration reads the key from: a file path, or its inline value.
struct KeySource {
  fs::path file;
  std::string inlineValue;
};

KeySource sourceOf(const Poco::Util::AbstractConfiguration& cfg, const std::string& auditKeyPath, const Key& key) {
  const fs::path dataDir = cfg.getString("data.dir");
  if (std::string(key.file) == "audit-signing.key") return {auditKeyPath, ""};
  const auto configured = cfg.getString(key.configKey, "");
  if (!configured.empty()) return {"", configured};
  return {dataDir / key.file, ""};
}

}  // namespace

std::vector<std::string> backUpKeys(const Poco::Util::AbstractConfiguration& cfg, const std::string& auditKeyPath,
                                    const std::string& dir) {
  std::vector<std::string> written;
  for (const auto& key : kKeys) {
    const auto source = sourceOf(cfg, auditKeyPath, key);
    const auto target = fs::path(dir) / key.file;
    if (!source.inlineValue.empty()) {
      writePrivate(target, source.inlineValue);
    } else if (fs::exists(source.file)) {
      fs::copy_file(source.file, target, fs::copy_options::overwrite_existing);
      fs::permissions(target, fs::status(source.file).permissions());  // modes preserved
    } else {
      continue;  // never generated: the store has nothing sealed or signed with it
    }
    written.push_back(key.file);
  }
  return written;
}

std::vector<std::string> restoreKeys(const Poco::Util::AbstractConfiguration& cfg, const std::string& auditKeyPath,
                                     const std::string& dir, std::ostream& out) {
  std::vector<std::string> written;
  for (const auto& key : kKeys) {
    const auto fromBackup = fs::path(dir) / key.file;
    auto value = readTrimmed(fromBackup);
    if (!value) continue;
    const auto target = sourceOf(cfg, auditKeyPath, key);
    if (!target.inlineValue.empty()) {
      if (target.inlineValue == *value) continue;
      const std::string problem = std::string(key.configKey) + " is configured with another value than the backup's " +
                                  key.file + ": " + key.losingItMeans + ". Set it to the content of " +
                                  fromBackup.string();
      if (std::string(key.file) == "webhook-secrets.key") throw std::runtime_error(problem);
      out << "warning: " << problem << "\n";
      continue;
    }
    if (auto existing = readTrimmed(target.file)) {
      if (*existing == *value) continue;
      throw std::runtime_error(target.file.string() + " already holds another key than the backup's " + key.file +
                               " (" + key.losingItMeans +
                               " if it were kept): restore into a new data dir, or move that file away");
    }
    fs::create_directories(target.file.parent_path());
    fs::copy_file(fromBackup, target.file);
    fs::permissions(target.file, fs::status(fromBackup).permissions());
    written.push_back(target.file.string());
  }
  return written;
}

}  // namespace aev::backup
