// Other simulators' names for our keys and part names (BookSim 2's configuration files and
// SST/Merlin's parameters): what a user who knows those tools types first. An unknown key or
// part name that one of them uses is answered with ours, instead of the nearest spelling
// (BookSim's `num_vcs` is router.lanes, not "buffers").
#pragma once
#include <string>

namespace icnsim {

// "BookSim's `num_vcs` is router.lanes" when `key` (the last part of a key path) is another
// tool's name for one of ours; "" otherwise.
std::string foreignKeyHint(const std::string& key);
// "BookSim's \"dor\" is \"dimension_order\"" when `name`, given to the part-type key `keyPath`
// (routing.type, topology.type, traffic.pattern.type, traffic.process), is another tool's
// name for one of our parts; "" otherwise.
std::string foreignPartHint(const std::string& keyPath, const std::string& name);

}  // namespace icnsim
