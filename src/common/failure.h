// What a failed command means for its user: the exit code (common/error.h) and the one
// line to print. Every command of the CLI goes through this, so the mapping from a kind of
// failure to its exit code is in one place and tested.
#pragma once
#include <exception>
#include <string>

namespace icnsim {

struct Failure {
  int exitCode;
  std::string message;  // "error: ...", "stuck network: ..." or "internal error: ..."
};

Failure describeFailure(std::exception_ptr error);

}  // namespace icnsim
