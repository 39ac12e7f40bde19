#pragma once
// backup.json, written last into a backup directory: what the backup holds and how to
// check it. A directory without it is an unfinished backup, and restore refuses it.
#include <cstdint>
#include <string>
#include <vector>

namespace aev::backup {

struct BackupFile {
  std::string name;  // relative to the backup directory
  std::uint64_t bytes = 0;
  std::string sha256;  // hex
};

struct BackupManifest {
  int format = 1;
  std::string daemonVersion;
  std::string store;  // "sqlite" or "postgresql"
  int schemaVersion = 0;
  std::int64_t takenAt = 0;         // microseconds since the epoch (UTC)
  std::int64_t highestEventId = 0;  // in the copy
  std::int64_t durationMicros = 0;
  std::vector<BackupFile> files;

  std::string toJson() const;
  // Throws std::runtime_error naming what is wrong.
  static BackupManifest fromJson(const std::string& text);
};

inline constexpr const char* kManifestName = "backup.json";
inline constexpr const char* kSqliteCopyName = "agent-events.db";
inline constexpr const char* kPostgresDumpName = "agent-events.pgdump";

// The file's size and SHA-256, read in blocks.
BackupFile describeFile(const std::string& dir, const std::string& name);

}  // namespace aev::backup
