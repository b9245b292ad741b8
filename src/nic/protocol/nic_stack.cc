#include "nic/protocol/nic_stack.h"

#include <fmt/format.h>

#include <algorithm>

#include "config/config.h"

namespace icnsim {

namespace {

const StringListKey kType = declarePartListKey<NicProtocol>(
    {"nic"}, "type", {"none"},
    "the NI protocol, or a list of layers: a packet goes when every layer lets it (docs/models/nifdy.md)");

}  // namespace

std::vector<std::string> NicStack::layerNames(const ConfigNode& nic) { return nic.get(kType); }

NicStack::NicStack(const NicContext& ctx, const ConfigNode& nic) : packets_(*ctx.packets) {
  const std::vector<std::string> names = layerNames(nic);
  if (names.size() > 100) nic.fail("type", "at most 100 layers");
  const NicProtocol* header = nullptr;
  for (size_t i = 0; i < names.size(); ++i) {
    if (std::count(names.begin(), names.end(), names[i]) > 1) {
      nic.fail("type", fmt::format("layer \"{}\" is listed twice", names[i]));
    }
    layers_.push_back(makeNicProtocol(names[i], ctx, nic));
    if (!layers_.back()->usesDataHeader()) continue;
    if (header) nic.fail("type", "two layers write the header of data packets; at most one may");
    header = layers_.back().get();
  }
}

void NicStack::sizeBuffers(NiBuffers& b) const {
  for (const auto& layer : layers_) layer->sizeBuffers(b);
}

int NicStack::choose(int terminal, const RingDeque<int32_t>& pool) const {
  for (size_t i = 0; i < pool.size(); ++i) {
    const bool all = std::all_of(layers_.begin(), layers_.end(),
                                 [&](const auto& layer) { return layer->eligible(terminal, pool, i); });
    if (all) return static_cast<int>(i);
  }
  return -1;
}

void NicStack::sent(int terminal, int32_t packet, Cycle now) {
  for (const auto& layer : layers_) layer->sent(terminal, packet, now);
}

void NicStack::unsent(int terminal, int32_t packet) {
  for (const auto& layer : layers_) layer->unsent(terminal, packet);
}

void NicStack::controlArrived(int terminal, const Packet& packet) {
  const size_t layer = static_cast<size_t>(packet.nicLayer);
  if (layer >= layers_.size()) {
    throw InternalError(fmt::format("terminal {}: a control packet of layer {}, but the stack has {} layers", terminal,
                                    layer, layers_.size()));
  }
  layers_[layer]->controlArrived(terminal, packet);
}

void NicStack::collect(size_t layer, int32_t packet, std::vector<int32_t>& control) {
  if (packet < 0) return;
  packets_[packet].nicLayer = static_cast<int8_t>(layer);
  control.push_back(packet);
}

void NicStack::arrived(int terminal, const Packet& packet, Cycle now, std::vector<int32_t>& control) {
  for (size_t i = 0; i < layers_.size(); ++i) collect(i, layers_[i]->arrived(terminal, packet, now), control);
}

void NicStack::accepted(int terminal, const Packet& packet, Cycle now, std::vector<int32_t>& control) {
  for (size_t i = 0; i < layers_.size(); ++i) collect(i, layers_[i]->accepted(terminal, packet, now), control);
}

bool NicStack::buffersItself(const Packet& packet) const {
  return std::any_of(layers_.begin(), layers_.end(), [&](const auto& layer) { return layer->buffersItself(packet); });
}

void NicStack::deliver(int terminal, int32_t packet) {
  for (const auto& layer : layers_) {
    if (layer->buffersItself(packets_[packet])) return layer->deliver(terminal, packet);
  }
}

int32_t NicStack::nextReady(int terminal) {
  for (const auto& layer : layers_) {
    if (const int32_t id = layer->nextReady(terminal); id >= 0) return id;
  }
  return -1;
}

bool NicStack::recoversLoss() const {
  return std::any_of(layers_.begin(), layers_.end(), [](const auto& layer) { return layer->recoversLoss(); });
}

void NicStack::expired(Cycle now, std::vector<std::pair<int, int32_t>>& out) {
  for (const auto& layer : layers_) layer->expired(now, out);
}

bool NicStack::duplicate(int terminal, const Packet& p) const {
  return std::any_of(layers_.begin(), layers_.end(), [&](const auto& layer) { return layer->duplicate(terminal, p); });
}

void NicStack::admitted(int terminal, const Packet& p) {
  for (const auto& layer : layers_) layer->admitted(terminal, p);
}

void NicStack::duplicateArrived(int terminal, const Packet& p, Cycle now, std::vector<int32_t>& control) {
  for (size_t i = 0; i < layers_.size(); ++i) collect(i, layers_[i]->duplicateArrived(terminal, p, now), control);
}

void NicStack::corruptedArrived(int terminal, const Packet& p) {
  for (const auto& layer : layers_) layer->corruptedArrived(terminal, p);
}

std::vector<std::pair<std::string, double>> NicStack::counters() const {
  std::vector<std::pair<std::string, double>> all;
  for (const auto& layer : layers_) {
    const auto c = layer->counters();
    all.insert(all.end(), c.begin(), c.end());
  }
  return all;
}

bool NicStack::sendsControlPackets() const {
  for (const auto& layer : layers_) {
    if (layer->sendsControlPackets()) return true;
  }
  return false;
}

}  // namespace icnsim
