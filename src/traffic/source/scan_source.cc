// Scan source (NIFDY §4.5): the scan step of a radix sort as a chain. The senders form a
// chain in terminal order; the first may send all its values, every other one may send a
// value for each it has received, and each sends one-packet messages to the next in the
// chain, waiting send_delay cycles after each. The chain's last terminal only receives.
// Keys: declared where they are read (`icnsim keys`, docs/configuration.md).
#include "config/config.h"
#include "traffic/traffic_source.h"

namespace icnsim {
namespace {

const TableKey kScan = declareTable({"traffic"}, "scan", "the radix-sort scan chain (process = \"scan\")");
const IntKey kValues = declareInt({"traffic.scan"}, "values", 256, 1, 1 << 24,
                                  "values each terminal passes down the chain (NIFDY: 256 buckets of an 8-bit radix)");
const IntKey kSendDelay = declareInt({"traffic.scan"}, "send_delay", 0, 0, int64_t{1} << 30,
                                     "cycles a terminal waits after each send before the next");

class ScanSource : public TrafficSource {
 public:
  explicit ScanSource(const ConfigNode& traffic) {
    ConfigNode scan = traffic.child(kScan);
    values_ = static_cast<int>(scan.get(kValues));
    sendDelay_ = static_cast<Cycle>(scan.get(kSendDelay));
  }
  bool needsProcessor() const override { return true; }

  void start(MessageBuilder& builder) override {
    TrafficSource::start(builder);
    const int n = builder.terminals();
    allowed_.assign(n, 0);
    sent_.assign(n, 0);
    nextSendAt_.assign(n, 0);
    if (!builder.senders().empty()) allowed_[builder.senders()[0]] = values_;
  }

  void createOnDemand(int terminal, Cycle now, bool tracked) override {
    if (!builder_->sends(terminal) || lastInChain(terminal)) return;
    if (sent_[terminal] >= allowed_[terminal] || now < nextSendAt_[terminal]) return;
    ++sent_[terminal];
    nextSendAt_[terminal] = now + sendDelay_;
    MessageShape shape;
    shape.destination = builder_->senders()[builder_->senderRank(terminal) + 1];
    shape.maxPackets = 1;
    builder_->create(terminal, now, tracked, shape);
  }

  void received(int terminal, const Message&, Cycle) override {
    if (builder_->senderRank(terminal) <= 0) return;
    ++allowed_[terminal];
    builder_->wake(terminal);
  }

  Cycle nextCreation(int terminal) const override {
    if (sent_[terminal] >= allowed_[terminal] || lastInChain(terminal)) return kNever;
    return nextSendAt_[terminal];
  }

 private:
  bool lastInChain(int terminal) const {
    return builder_->senderRank(terminal) + 1 == static_cast<int>(builder_->senders().size());
  }

  int values_ = 256;
  Cycle sendDelay_ = 0;
  std::vector<int> allowed_, sent_;  // values a terminal may send (received, or all for the first) and has sent
  std::vector<Cycle> nextSendAt_;
};

}  // namespace

ICNSIM_REGISTER(TrafficSource, "scan", "radix-sort scan chain (NIFDY §4.5)",
                [](const TrafficContext&, const ConfigNode& traffic) { return std::make_unique<ScanSource>(traffic); });

}  // namespace icnsim
