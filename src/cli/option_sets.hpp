// The option sets commands are built from: each binds registry options to the Settings fields
// they fill. A command lists the sets it reads (commands.cpp), so --help lists exactly the
// options it reads.
#pragma once

#include "command_settings.hpp"
#include "option_binder.hpp"

namespace crd::cli {

using OptionSet = void (*)(OptionBinder& b, Settings& s);

namespace sets {
void input(OptionBinder& b, Settings& s);       // reading and cleaning a corpus
void samples(OptionBinder& b, Settings& s);     // labeled chunks keep samples
void reading(OptionBinder& b, Settings& s);     // the record size limit
void chunking(OptionBinder& b, Settings& s);    // the chunker and its parameters
void thresholds(OptionBinder& b, Settings& s);  // which counted items are labeled
void keep_counts(OptionBinder& b, Settings& s);
void stop_items(OptionBinder& b, Settings& s);     // stop chunks
void detect_labels(OptionBinder& b, Settings& s);  // detect's labeled sets and their join
void scoring(OptionBinder& b, Settings& s);        // page and neighborhood scoring
void neardup(OptionBinder& b, Settings& s);
void quilts(OptionBinder& b, Settings& s);
void hashing(OptionBinder& b, Settings& s);  // compare-hashing
void check(OptionBinder& b, Settings& s);
void compare(OptionBinder& b, Settings& s);
void inspect(OptionBinder& b, Settings& s);
void report(OptionBinder& b, Settings& s);
void output(OptionBinder& b, Settings& s);       // the result file and run control
void checkpoints(OptionBinder& b, Settings& s);  // --work-dir, --resume
void config(OptionBinder& b, Settings& s);       // --config, --verbose: every command
}  // namespace sets

}  // namespace crd::cli
