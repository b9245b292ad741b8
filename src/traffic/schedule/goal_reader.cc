#include "traffic/schedule/goal_reader.h"

#include <fmt/format.h>

#include <fstream>
#include <map>
#include <optional>
#include <sstream>

#include "common/input_file.h"
#include "common/text_line.h"

namespace icnsim {
namespace {

constexpr int32_t kMaxRanks = 1 << 24;

// The words of a line with comments removed and `{`, `}` and `:` set apart; `inComment`
// carries a block comment over lines.
std::vector<std::string> wordsOf(std::string text, bool& inComment) {
  std::string kept;
  for (size_t i = 0; i < text.size(); ++i) {
    if (inComment) {
      if (text.compare(i, 2, "*/") == 0) inComment = false, ++i;
      continue;
    }
    if (text.compare(i, 2, "//") == 0) break;
    if (text.compare(i, 2, "/*") == 0) {
      inComment = true, ++i;
      continue;
    }
    const char c = text[i];
    if (c == '{' || c == '}' || c == ':') kept += std::string(" ") + c + " ";
    else kept += c;
  }
  std::istringstream split(kept);
  std::vector<std::string> words;
  for (std::string w; split >> w;) words.push_back(w);
  return words;
}

// The reader's state: the rank block open, its labels and its dependency lines (resolved
// when the block closes, so that a dependency may name a label defined below it).
class GoalReader {
 public:
  // `origin` names the file in errors about an operation: "rank 2 <origin> <line>".
  GoalReader(GoalCounts& counts, std::string origin) : counts_(counts), origin_(std::move(origin)) {}
  void line(TextLine& line, int number);
  Schedule finish(const std::string& where);

 private:
  struct Dependency {
    std::string after, before;
    bool onStart;
    std::string where;
  };
  void numRanks(TextLine& line);
  void openRank(TextLine& line);
  void closeRank(TextLine& line);
  void operation(TextLine& line, const std::string& label, const std::string& kind);
  uint64_t bytes(TextLine& line);
  void attributes(TextLine& line, ScheduleOp& op);
  int32_t labelled(const std::string& label, const std::string& where) const;

  GoalCounts& counts_;
  const std::string origin_;
  int number_ = 0;  // the line's
  std::optional<Schedule> schedule_;
  std::vector<bool> seen_;
  int32_t rank_ = -1;  // the open block's rank, -1 outside blocks
  std::map<std::string, int32_t> labels_;
  std::vector<Dependency> dependencies_;
};

void GoalReader::line(TextLine& line, int number) {
  number_ = number;
  const std::string first = line.word("a statement");
  if (first == "num_ranks") return numRanks(line);
  if (!schedule_) line.fail(fmt::format("expected 'num_ranks N' before '{}'", first));
  if (first == "rank") return openRank(line);
  if (rank_ < 0) line.fail(fmt::format("expected 'rank R {{' before '{}'", first));
  if (first == "}") return closeRank(line);
  if (first == "send" || first == "recv" || first == "calc") return operation(line, "", first);
  const std::string second = line.word("':', 'requires' or 'irequires' after a label");
  if (second == ":") return operation(line, first, line.word("send, recv or calc"));
  if (second != "requires" && second != "irequires") {
    line.fail(fmt::format("expected ':', 'requires' or 'irequires' after '{}', got '{}'", first, second));
  }
  dependencies_.push_back({first, line.word("a label"), second == "irequires", line.where()});
  if (!line.done()) line.fail("unexpected words at the end of the line");
}

void GoalReader::numRanks(TextLine& line) {
  if (schedule_) line.fail("num_ranks is given twice");
  schedule_.emplace(line.integer("the number of ranks", 1, kMaxRanks));
  seen_.assign(schedule_->ranks(), false);
  if (!line.done()) line.fail("unexpected words at the end of the line");
}

void GoalReader::openRank(TextLine& line) {
  if (rank_ >= 0) line.fail(fmt::format("rank {} is still open: expected '}}' first", rank_));
  rank_ = line.integer("a rank", 0, schedule_->ranks() - 1);
  if (seen_[rank_]) line.fail(fmt::format("rank {} has a block already", rank_));
  seen_[rank_] = true;
  if (line.word("'{'") != "{") line.fail("expected '{' after the rank");
  if (!line.done()) line.fail("unexpected words after '{'");
}

void GoalReader::closeRank(TextLine& line) {
  if (!line.done()) line.fail("unexpected words after '}'");
  for (const Dependency& d : dependencies_) {
    const int32_t after = labelled(d.after, d.where), before = labelled(d.before, d.where);
    d.onStart ? schedule_->requireStart(after, before) : schedule_->requireComplete(after, before);
  }
  dependencies_.clear();
  labels_.clear();
  rank_ = -1;
}

int32_t GoalReader::labelled(const std::string& label, const std::string& where) const {
  const auto it = labels_.find(label);
  if (it == labels_.end()) {
    throw ConfigError(
        fmt::format("{}: no operation of rank {} has the label '{}'", where, rank_, printableText(label)));
  }
  return it->second;
}

void GoalReader::operation(TextLine& line, const std::string& label, const std::string& kind) {
  ScheduleOp op;
  op.rank = rank_;
  const int32_t last = schedule_->ranks() - 1;
  if (kind == "send") {
    op.kind = ScheduleOp::Kind::kSend;
    op.size = bytes(line);
    if (line.word("'to'") != "to") line.fail("expected 'to' and the destination rank after the size");
    op.peer = line.integer("the destination rank", 0, last);
  } else if (kind == "recv") {
    op.kind = ScheduleOp::Kind::kRecv;
    op.size = bytes(line);
    if (line.word("'from'") != "from") line.fail("expected 'from' and the source rank after the size");
    op.peer = line.integer("the source rank (-1: any)", -1, last);
  } else if (kind == "calc") {
    op.size = line.integer<uint64_t>("the cycles to compute", 0, uint64_t{1} << 40);
  } else {
    line.fail(fmt::format("expected send, recv or calc, got '{}'", kind));
  }
  attributes(line, op);
  const int32_t id = schedule_->add(op, origin_, static_cast<uint32_t>(number_));
  if (!label.empty() && !labels_.emplace(label, id).second) {
    line.fail(fmt::format("rank {} has two operations labelled '{}'", rank_, label));
  }
}

uint64_t GoalReader::bytes(TextLine& line) {
  std::string size = line.word("the size in bytes ('64b')");
  if (size.ends_with('b')) size.pop_back();
  else if (line.peek() == "b") line.word("'b'");
  else line.fail(fmt::format("expected the size in bytes ('64b'), got '{}'", size));
  TextLine number({size}, line.where());
  return number.integer<uint64_t>("the size in bytes", 0, uint64_t{1} << 48);
}

void GoalReader::attributes(TextLine& line, ScheduleOp& op) {
  while (!line.done()) {
    const bool calc = op.kind == ScheduleOp::Kind::kCalc;
    const std::string key = line.word(calc ? "cpu or nic" : "tag, cpu or nic");
    if (key == "tag" && op.kind != ScheduleOp::Kind::kCalc) {
      const int32_t any = op.kind == ScheduleOp::Kind::kRecv ? kAnyTag : 0;
      op.tag = line.integer("the tag (a receive's -1: any)", any, int32_t{1} << 30);
    } else if (key == "cpu") {
      counts_.cpuAttributes += line.integer("the cpu", 0, 1 << 16) > 0;
    } else if (key == "nic") {
      counts_.nicAttributes += line.integer("the nic", 0, 1 << 16) > 0;
    } else {
      line.fail(fmt::format("expected {}, got '{}'", calc ? "cpu or nic after a calc" : "tag, cpu or nic", key));
    }
  }
}

Schedule GoalReader::finish(const std::string& where) {
  if (!schedule_) throw ConfigError(where + ": no 'num_ranks N' statement");
  if (rank_ >= 0) throw ConfigError(fmt::format("{}: rank {}'s block is not closed with '}}'", where, rank_));
  return std::move(*schedule_);
}

}  // namespace

Schedule readGoal(const std::string& path, const std::string& name, GoalCounts& counts) {
  std::ifstream in = openInputFile(path, input_kinds::kGoal, name);
  GoalReader reader(counts, fmt::format("operation of {} ({}), line", name, path));
  bool inComment = false;
  std::string text;
  for (int number = 1; std::getline(in, text); ++number) {
    std::vector<std::string> words = wordsOf(text, inComment);
    if (words.empty()) continue;
    TextLine line(std::move(words), fmt::format("{} ({}:{})", name, path, number));
    reader.line(line, number);
  }
  return reader.finish(fmt::format("{} ({})", name, path));
}

}  // namespace icnsim
