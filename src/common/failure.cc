#include "common/failure.h"

#include <filesystem>
#include <new>

#include "common/error.h"

namespace icnsim {

Failure describeFailure(std::exception_ptr error) {
  try {
    std::rethrow_exception(error);
  } catch (const ConfigError& e) {
    return {kExitConfig, std::string("error: ") + e.what()};
  } catch (const ResourceError& e) {
    return {kExitConfig, std::string("error: ") + e.what()};
  } catch (const std::bad_alloc&) {
    return {kExitConfig, "error: out of memory (the configuration needs more memory than this machine has)"};
  } catch (const std::filesystem::filesystem_error& e) {
    return {kExitConfig, std::string("error: ") + e.what()};
  } catch (const StuckNetworkError& e) {
    return {kExitStuck, std::string("stuck network: ") + e.what()};
  } catch (const std::exception& e) {
    return {kExitInternal, std::string("internal error: ") + e.what()};
  } catch (...) {
    return {kExitInternal, "internal error: an unknown exception"};
  }
}

}  // namespace icnsim
