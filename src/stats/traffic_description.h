// What the statistics know of the traffic: its traffic classes, message-length classes and
// source groups as plain values, which the simulation takes from the workload (the
// statistics sit below the traffic layer and never see it).
#pragma once
#include <cstddef>
#include <string>
#include <vector>

namespace icnsim {

struct TrafficDescription {
  struct Class {
    std::string name;
    double share = 1.0;
    int priority = 0;
  };
  struct LengthClass {
    std::string name;
    double share = 1.0;
    std::vector<int> packets;  // lengths chosen with equal probability
    double meanPackets = 0;    // > 0 instead: geometric lengths with this mean
  };
  struct Group {
    std::string name;
    size_t terminals = 0;
    double offeredRate = 0;  // flits/node/cycle its members are asked to send
  };
  std::vector<Class> classes;
  std::vector<LengthClass> lengths;
  std::vector<Group> groups;
  size_t terminals = 0;       // every terminal, sources or not
  bool classStreams = false;  // some class has a source of its own (its messages are in no group)
};

}  // namespace icnsim
