#include "common/input_file.h"

#include <fmt/format.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <sstream>

#include "common/error.h"

namespace icnsim {

namespace {

// "WHO: PATH" or "PATH".
std::string named(const std::string& path, const std::string& who) {
  return who.empty() ? path : fmt::format("{}: {}", who, path);
}

std::string sizeText(uintmax_t bytes) {
  if (bytes >= (uintmax_t{1} << 30) && bytes % (uintmax_t{1} << 30) == 0) return fmt::format("{} GiB", bytes >> 30);
  if (bytes >= (uintmax_t{1} << 20) && bytes % (uintmax_t{1} << 20) == 0) return fmt::format("{} MiB", bytes >> 20);
  return fmt::format("{} bytes", bytes);
}

// The reason `path` breaks the rule, or empty; `size` is set when it does not.
std::string violation(const std::string& path, const InputKind& kind, uintmax_t& size) {
  if (path.empty()) return fmt::format("expected the name of a {}", kind.what);
  std::error_code ec;
  const std::filesystem::file_status status = std::filesystem::status(path, ec);
  if (!std::filesystem::exists(status)) {
    // A relative name: say where it was looked for (a configuration file's names are relative
    // to it, a --set's to the current directory).
    const std::filesystem::path name(path);
    const std::string where =
        name.is_relative() ? fmt::format(" (looked for {})", std::filesystem::absolute(name, ec).string()) : "";
    return fmt::format("cannot open the {}: no such file{}", kind.what, where);
  }
  if (std::filesystem::is_directory(status)) return fmt::format("is a directory, not a {}", kind.what);
  if (!std::filesystem::is_regular_file(status)) {
    return fmt::format("is not a regular file (a device, FIFO or socket); give a {}", kind.what);
  }
  size = std::filesystem::file_size(path, ec);
  if (ec) return fmt::format("cannot read the {}: {}", kind.what, ec.message());
  if (size > kind.maxBytes) {
    return fmt::format("is {} bytes; a {} may have at most {}", size, kind.what, sizeText(kind.maxBytes));
  }
  return {};
}

}  // namespace

uintmax_t checkInputFile(const std::string& path, const InputKind& kind, const std::string& who) {
  uintmax_t size = 0;
  if (std::string why = violation(path, kind, size); !why.empty()) {
    throw ConfigError(fmt::format("{}: {}", named(path, who), why));
  }
  return size;
}

std::ifstream openInputFile(const std::string& path, const InputKind& kind, const std::string& who) {
  checkInputFile(path, kind, who);
  std::ifstream in(path, std::ios::binary);
  if (!in)
    throw ConfigError(fmt::format("{}: cannot open the {}: {}", named(path, who), kind.what, std::strerror(errno)));
  return in;
}

std::string readInputFile(const std::string& path, const InputKind& kind, const std::string& who) {
  std::ifstream in = openInputFile(path, kind, who);
  std::stringstream text;
  text << in.rdbuf();
  if (in.bad()) throw ConfigError(fmt::format("{}: cannot read the {}", named(path, who), kind.what));
  return text.str();
}

bool isReadableInputFile(const std::string& path, const InputKind& kind) {
  uintmax_t size = 0;
  return violation(path, kind, size).empty();
}

}  // namespace icnsim
