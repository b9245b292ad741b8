// A trace file read front to back in pieces, bzip2-compressed (libbz2; recognised by its
// "BZh" signature) or not, so that a trace of any length is read in constant memory.
#pragma once
#include <bzlib.h>

#include <cstdint>
#include <cstdio>
#include <string>

namespace icnsim {

class ByteStream {
 public:
  // `name` says in errors where the path came from (e.g. "traffic.netrace.file").
  ByteStream(const std::string& path, const std::string& name);
  ~ByteStream();
  ByteStream(const ByteStream&) = delete;
  ByteStream& operator=(const ByteStream&) = delete;

  // Reads up to `n` bytes; fewer only at the end of the file. Throws ConfigError on a
  // corrupt compressed stream.
  size_t read(void* to, size_t n);
  // Reads exactly `n` bytes or throws ConfigError saying `what` was cut short.
  void readExactly(void* to, size_t n, const char* what);
  // Skips `n` bytes (throws at the end of the file).
  void skip(uint64_t n, const char* what);
  uint64_t offset() const { return offset_; }
  const std::string& where() const { return where_; }

 private:
  bool nextStream();

  std::FILE* file_ = nullptr;
  BZFILE* bz_ = nullptr;  // null: the file is read as it is
  bool ended_ = false;
  uint64_t offset_ = 0;  // bytes read, after decompression
  std::string where_;    // "<name> (<path>)"
};

}  // namespace icnsim
