// Option groups shared by crd's subcommands, parsing (command line, then --config INI), and the
// effective configuration rendered back as INI for /config in the result file.
#pragma once

#include <boost/program_options.hpp>
#include <cstdint>
#include <string>
#include <vector>

#include "crd/pipeline/options.hpp"

namespace crd::cli {

namespace po = boost::program_options;

// The option groups. Each registers options whose values land in the given structs after
// parse_command() (via notifiers), defaulting to the values the structs hold now. A command adds
// only the groups it reads: crd check chunks single pages (no corpus options), and detect keeps
// no chunk samples (its labels bring theirs: with_samples false).
po::options_description corpus_options(pipeline::CommonOptions& common, bool with_samples);
po::options_description chunking_options(pipeline::CommonOptions& common, bool with_chunker = true);
// with_checkpoints: --work-dir and --resume (not for neardup, whose sketches live only in memory).
po::options_description run_options(pipeline::CommonOptions& common, std::string& config_path,
                                    bool with_checkpoints = true);
// with_keep_counts: --keep-counts (discover, run: the count tables crd merge sums).
po::options_description discovery_options(pipeline::DiscoverOptions& options, bool with_thresholds,
                                          bool with_keep_counts = false);
po::options_description detection_options(pipeline::DetectPipelineOptions& options, bool with_labels);

// True if any crd command has an option of this long name (config files may hold those).
bool is_crd_option(const std::string& name);

struct ParsedCommand {
  po::variables_map vm;
  std::vector<std::string> inputs;  // the positional arguments
  std::string config_ini;           // effective options, INI
};

// Parses argv (after the subcommand) against `visible` + positional inputs, then the INI file
// named by --config if any (the command line wins). Throws UsageError with a one-line message;
// UsageError(no_inputs) when there is no positional argument, unless no_inputs is null.
ParsedCommand parse_command(int argc, char** argv, const po::options_description& visible, const char* no_inputs,
                            const std::string& config_path_option = "");

std::string join_command_line(int argc, char** argv);

// If the arguments after the subcommand ask for help (-h, --help), prints `visible` and returns
// true: answered before parsing, so required options need not be given.
bool print_help(int argc, char** argv, const po::options_description& visible);

}  // namespace crd::cli
