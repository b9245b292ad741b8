// Error types shared by every layer. The command line maps each to its own exit code so a
// script can tell bad input (fix your config) from an internal failure (report a bug) and
// from a network that stopped making progress (a property of the configuration under test).
#pragma once
#include <stdexcept>
#include <string>

namespace icnsim {

// Bad user input: a config file, a key, a value or a command-line option. Exit code 2.
class ConfigError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A key in the configuration that nothing reads (a typo, or a key that does not apply).
class UnknownKeyError : public ConfigError {
 public:
  using ConfigError::ConfigError;
};

// A result could not be written (no such directory, a directory in the way, a full disk) or
// the machine lacks what a run needs (memory). Exit code 2: the cause is outside the code.
class ResourceError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The watchdog saw flits in the network but none moved for too long. Exit code 4.
class StuckNetworkError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A broken invariant inside the simulator: always a bug. Exit code 3.
class InternalError : public std::logic_error {
 public:
  using std::logic_error::logic_error;
};

enum ExitCode : int { kExitOk = 0, kExitUsage = 1, kExitConfig = 2, kExitInternal = 3, kExitStuck = 4 };

}  // namespace icnsim
