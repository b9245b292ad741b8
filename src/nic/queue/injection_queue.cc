#include "nic/queue/injection_queue.h"

#include "config/config.h"

namespace icnsim {

namespace {

const StringKey kScheduling =
    declarePartKey<InjectionQueue>({"nic"}, "scheduling", "fifo", "the injection queue's order of messages");

}  // namespace

std::unique_ptr<InjectionQueue> makeInjectionQueue(const NicContext& ctx, const ConfigNode& nic) {
  std::string name = nic.get(kScheduling);
  return Registry<InjectionQueue>::instance().create(name, ctx, nic, "scheduling");
}

}  // namespace icnsim
