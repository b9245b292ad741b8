// The parts of one network that have failed: directed links (a router's output port that
// leads to another router) and routers (with every link into and out of them). What a
// DegradedTopology leaves out, what routing sees, and what the results echo.
#pragma once
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "topology/topology.h"

namespace icnsim {

// The output port of the router that (router, port) leads to whose link comes back to
// `router`, or -1 if none does. Among parallel links back, the one paired with it: the port
// it arrives at (in-port i and out-port i reach one neighbour), else the one arriving at
// `port`, else the first.
int reverseLink(const Topology& topology, int router, int port);

class FailedParts {
 public:
  explicit FailedParts(const Topology& topology);
  bool empty() const { return failedLinks_ == 0 && failedRouters_ == 0; }
  // The link out of `router`'s output `port`, which must lead to a router.
  void failLink(int router, int port);
  // The link and the one back along it (the peer's port that leads here), if there is one.
  void failBothWays(int router, int port);
  void failRouter(int router);
  bool linkFailed(int router, int port) const { return failed_[base_[router] + port] != 0; }
  bool routerFailed(int router) const { return routerFailed_[router] != 0; }
  // Every failed link (those of failed routers too), by router then port.
  std::vector<std::pair<int, int>> links() const;
  std::vector<int> routers() const;
  // " failed=" and a hash of the failed links: what a routing's dependencyIdentity adds.
  std::string identity() const;

 private:
  const Topology& topology_;
  std::vector<int64_t> base_;  // per router: its first port's index in failed_
  std::vector<uint8_t> failed_;
  std::vector<uint8_t> routerFailed_;
  int64_t failedLinks_ = 0;
  int failedRouters_ = 0;
};

}  // namespace icnsim
