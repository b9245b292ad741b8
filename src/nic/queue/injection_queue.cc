#include "nic/queue/injection_queue.h"

#include "config/config.h"

namespace icnsim {

std::unique_ptr<InjectionQueue> makeInjectionQueue(const BuildContext& ctx, const ConfigNode& nic) {
  // scheduling: injection queue discipline, "fifo" or "alpha" (Fed-X §5)
  std::string name = nic.getString("scheduling", "fifo");
  return Registry<InjectionQueue>::instance().create(name, ctx, nic, "scheduling");
}

}  // namespace icnsim
