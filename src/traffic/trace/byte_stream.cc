#include "traffic/trace/byte_stream.h"

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <vector>

#include "common/error.h"
#include "common/input_file.h"

namespace icnsim {

ByteStream::ByteStream(const std::string& path, const std::string& name) : where_(fmt::format("{} ({})", name, path)) {
  checkInputFile(path, input_kinds::kNetrace, name);
  file_ = std::fopen(path.c_str(), "rb");
  if (!file_) throw ConfigError(fmt::format("{}: cannot read the file: {}", where_, std::strerror(errno)));
  char signature[3] = {};
  const size_t got = std::fread(signature, 1, 3, file_);
  std::rewind(file_);
  if (got == 3 && std::memcmp(signature, "BZh", 3) == 0) {
    int error = BZ_OK;
    bz_ = BZ2_bzReadOpen(&error, file_, 0, 0, nullptr, 0);
    if (error != BZ_OK) {
      std::fclose(file_);
      throw ConfigError(fmt::format("{}: cannot open the bzip2 stream (libbz2 error {})", where_, error));
    }
  }
}

ByteStream::~ByteStream() {
  if (bz_) {
    int error = BZ_OK;
    BZ2_bzReadClose(&error, bz_);
  }
  std::fclose(file_);
}

size_t ByteStream::read(void* to, size_t n) {
  size_t got = 0;
  while (got < n && !ended_) {
    char* at = static_cast<char*>(to) + got;
    if (!bz_) {
      const size_t len = std::fread(at, 1, n - got, file_);
      ended_ = len < n - got;
      got += len;
      continue;
    }
    int error = BZ_OK;
    const int len = BZ2_bzRead(&error, bz_, at, static_cast<int>(std::min<size_t>(n - got, 1 << 30)));
    if (error != BZ_OK && error != BZ_STREAM_END) {
      throw ConfigError(fmt::format("{}: the bzip2 stream is corrupt after {} bytes (libbz2 error {})", where_,
                                    offset_ + got, error));
    }
    got += len > 0 ? static_cast<size_t>(len) : 0;
    if (error == BZ_STREAM_END) ended_ = !nextStream();
  }
  offset_ += got;
  return got;
}

// A file may hold several bzip2 streams one after another (pbzip2 writes them; bzip2 -d
// reads them all): opens the next one with the bytes the last one read past its end.
bool ByteStream::nextStream() {
  void* unused = nullptr;
  int count = 0, error = BZ_OK;
  BZ2_bzReadGetUnused(&error, bz_, &unused, &count);
  const std::vector<char> rest(static_cast<char*>(unused), static_cast<char*>(unused) + count);
  BZ2_bzReadClose(&error, bz_);
  bz_ = nullptr;
  if (rest.empty() && std::feof(file_)) return false;
  if (rest.empty()) {
    const int c = std::fgetc(file_);
    if (c == EOF) return false;
    std::ungetc(c, file_);
  }
  bz_ = BZ2_bzReadOpen(&error, file_, 0, 0, const_cast<char*>(rest.data()), static_cast<int>(rest.size()));
  if (error != BZ_OK) {
    throw ConfigError(
        fmt::format("{}: cannot open the bzip2 stream after byte {} (libbz2 error {})", where_, offset_, error));
  }
  return true;
}

void ByteStream::readExactly(void* to, size_t n, const char* what) {
  const size_t got = read(to, n);
  if (got < n) {
    throw ConfigError(fmt::format("{}: the file ends inside {} ({} of its {} bytes, at byte {})", where_, what, got, n,
                                  offset_ - got));
  }
}

void ByteStream::skip(uint64_t n, const char* what) {
  std::vector<char> buffer(1 << 16);
  while (n > 0) {
    const size_t piece = std::min<uint64_t>(n, buffer.size());
    readExactly(buffer.data(), piece, what);
    n -= piece;
  }
}

}  // namespace icnsim
