// `icnsim reproduce <paper>...`: runs every experiment in experiments/<paper>/ (one TOML file
// per figure) as a sweep into OUT/<file stem>/, then runs tools/<paper>/report.py, which
// draws the figures and writes OUT/<paper>.md with claims, measurements and verdicts. With
// several papers, OUT/<paper>/ holds each, the experiments of all run as one queue
// (experiment/sweep_queue.h) and a paper's report draws while the next paper's run.
// --quick applies each file's [profile.quick] (shorter runs, fewer points); --full runs the
// files as written (the paper's run lengths and sizes).
#pragma once
#include <string>
#include <vector>

namespace icnsim {

struct ReproduceOptions {
  std::vector<std::string> papers;  // e.g. "dally": experiments/dally, tools/dally/report.py
  bool full = false;
  std::string outDir;  // the paper's; with several papers, the directory that holds theirs
  int jobs = 1;
  bool resume = false;
  bool quiet = false;
  std::string sourceDir;  // holds experiments/ and tools/; default: the build's source tree
  std::string only;       // run only experiments whose file stem starts with this
};

int runReproduce(const ReproduceOptions& options);

}  // namespace icnsim
