#include "common/output_file.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>

#include "common/error.h"

namespace icnsim {

namespace fs = std::filesystem;

namespace {

[[noreturn]] void fail(const fs::path& path, const std::string& what, int error) {
  throw ResourceError(fmt::format("{}: cannot {}: {}", path.string(), what, std::strerror(error)));
}

// A name no other writer of this process or another uses at the same time.
fs::path temporaryName(const fs::path& path) {
  static std::atomic<uint64_t> counter{0};
  return fs::path(path.string() + fmt::format(".tmp.{}.{}", ::getpid(), counter++));
}

void writeAll(int fd, std::string_view content, const fs::path& path) {
  while (!content.empty()) {
    const ssize_t n = ::write(fd, content.data(), content.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) fail(path, "write", n < 0 ? errno : ENOSPC);
    content.remove_prefix(static_cast<size_t>(n));
  }
}

// Where a file written to `path` ends up: a symlink's target (followed to the end, so the
// link stays a link), else `path` itself.
fs::path finalTarget(const fs::path& path) {
  fs::path target = path;
  for (int links = 0; fs::is_symlink(target); ++links) {
    if (links == 40) fail(path, "follow the symbolic link", ELOOP);
    const fs::path next = fs::read_symlink(target);
    target = next.is_absolute() ? next : target.parent_path() / next;
  }
  return target;
}

// Whether something other than a regular file (a device, a FIFO, a socket, /dev/fd/N of a
// pipe) sits at `path`: written through, never replaced.
bool isSpecialFile(const fs::path& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode);
}

void writeThrough(const fs::path& path, std::string_view content) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC);
  if (fd < 0) fail(path, "open the file", errno);
  try {
    writeAll(fd, content, path);
  } catch (...) {
    ::close(fd);
    throw;
  }
  if (::close(fd) != 0) fail(path, "write", errno);
}

}  // namespace

void writeFileAtomic(const fs::path& requested, std::string_view content) {
  if (fs::is_directory(requested)) fail(requested, "write the file", EISDIR);
  if (isSpecialFile(requested)) return writeThrough(requested, content);
  const fs::path path = finalTarget(requested);
  const fs::path temp = temporaryName(path);
  const int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) fail(path, "create the file", errno);
  try {
    writeAll(fd, content, path);
    if (::fsync(fd) != 0) fail(path, "write", errno);
  } catch (...) {
    ::close(fd);
    ::unlink(temp.c_str());
    throw;
  }
  if (::close(fd) != 0) {
    const int error = errno;
    ::unlink(temp.c_str());
    fail(path, "write", error);
  }
  if (::rename(temp.c_str(), path.c_str()) != 0) {
    const int error = errno;
    ::unlink(temp.c_str());
    fail(path, "rename the finished file into place", error);
  }
}

void checkWritable(const fs::path& requested) {
  if (fs::is_directory(requested)) fail(requested, "write the file", EISDIR);
  if (isSpecialFile(requested)) {
    if (::access(requested.c_str(), W_OK) != 0) fail(requested, "write the file", errno);
    return;
  }
  const fs::path path = finalTarget(requested);
  const fs::path temp = temporaryName(path);
  const int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0) fail(path, "create the file", errno);
  ::close(fd);
  ::unlink(temp.c_str());
}

void createDirectories(const fs::path& dir) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) throw ResourceError(fmt::format("{}: cannot create the directory: {}", dir.string(), ec.message()));
  if (!fs::is_directory(dir)) fail(dir, "create the directory", ENOTDIR);
}

AppendFile::AppendFile(const fs::path& path, bool truncate, Flush flush) : path_(path), flush_(flush) {
  if (fs::is_directory(path)) fail(path, "write the file", EISDIR);
  file_ = std::fopen(path.c_str(), truncate ? "w" : "a");
  if (!file_) fail(path, "open the file", errno);
}

AppendFile::~AppendFile() {
  if (file_) std::fclose(file_);
}

void AppendFile::writeLine(std::string_view line) {
  errno = 0;
  if (!file_) fail(path_, "write after closing", EBADF);
  const bool ok = std::fwrite(line.data(), 1, line.size(), file_) == line.size() && std::fputc('\n', file_) != EOF &&
                  (flush_ == Flush::kAtClose || std::fflush(file_) == 0);
  if (!ok) fail(path_, "write", errno ? errno : EIO);
}

void AppendFile::close() {
  if (!file_) return;
  errno = 0;
  const bool flushed = std::fflush(file_) == 0 && !std::ferror(file_);
  const int flushError = errno;
  const bool closed = std::fclose(file_) == 0;
  file_ = nullptr;
  if (!flushed || !closed) fail(path_, "write", flushError ? flushError : (errno ? errno : EIO));
}

}  // namespace icnsim
