// `icnsim reproduce <paper>`: runs every experiment in experiments/<paper>/ (one TOML file
// per figure) as a sweep into OUT/<file stem>/, then runs tools/<paper>/report.py, which
// draws the figures and writes OUT/<paper>.md with claims, measurements and verdicts.
// --quick applies each file's [profile.quick] (shorter runs, fewer points); --full runs the
// files as written (the paper's run lengths and sizes).
#pragma once
#include <string>

namespace icnsim {

struct ReproduceOptions {
  std::string paper;  // e.g. "dally": experiments/dally, tools/dally/report.py
  bool full = false;
  std::string outDir;
  int jobs = 1;
  bool resume = false;
  bool quiet = false;
  std::string sourceDir;  // holds experiments/ and tools/; default: the build's source tree
  std::string only;       // run only experiments whose file stem starts with this
};

int runReproduce(const ReproduceOptions& options);

}  // namespace icnsim
