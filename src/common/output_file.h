// Every file icnsim writes goes through here, so no result is ever lost silently: each
// write is checked, a whole file is written to a temporary name beside the target, flushed
// to disk and renamed into place (a reader sees the old file or the new one, never half of
// one), and any failure (missing directory, a directory in the way, a full disk) throws
// ResourceError naming the path and the system's reason. Nothing at the path is destroyed:
// a symbolic link is followed and its target replaced (the link stays), and a device, a
// FIFO or a pipe (/dev/null, /dev/stdout, a shell's >(...)) is written through in place.
#pragma once
#include <cstdio>
#include <filesystem>
#include <string>
#include <string_view>

namespace icnsim {

// Writes `content` to `path` atomically (temporary file + fsync + rename).
void writeFileAtomic(const std::filesystem::path& path, std::string_view content);

// Checks before a long run that `path` can be written (its directory exists and takes a
// new file), so a typo in an output path costs no simulation time.
void checkWritable(const std::filesystem::path& path);

// Creates `dir` and its parents; an existing file in the way is an ResourceError.
void createDirectories(const std::filesystem::path& dir);

// A file written line by line as results arrive (a sweep's running results.csv, a
// schedule's operations). Every write is checked; a failure throws ResourceError. With
// kEveryLine each line is flushed at once (a log that must survive a kill); with kAtClose
// lines are buffered and close() flushes and checks the rest (a long log whose writer
// reports at its end).
class AppendFile {
 public:
  enum class Flush { kEveryLine, kAtClose };
  AppendFile(const std::filesystem::path& path, bool truncate, Flush flush = Flush::kEveryLine);
  ~AppendFile();
  AppendFile(const AppendFile&) = delete;
  AppendFile& operator=(const AppendFile&) = delete;
  void writeLine(std::string_view line);
  void close();  // flushes and closes; throws ResourceError if anything was not written

 private:
  std::filesystem::path path_;
  std::FILE* file_ = nullptr;
  Flush flush_;
};

}  // namespace icnsim
