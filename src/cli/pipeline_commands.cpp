// crd discover / label / detect / run: options → pipeline, under MPI (or on a given transport).
#include <array>

#include "commands.hpp"
#include "corpus_job.hpp"
#include "option_groups.hpp"
#include "crd/base/error.hpp"
#include "crd/cli/main.hpp"
#include "crd/comm/job_transport.hpp"
#include "crd/pipeline/detect_pipeline.hpp"
#include "crd/pipeline/discover_pipeline.hpp"

namespace crd::cli {
namespace {

enum class Kind { Discover, Label, Detect, Run };  // the order of kPipelineCommands

struct PipelineCommand {
  Kind kind;
  const char* name;
  const char* usage;
};

constexpr std::array<PipelineCommand, 4> kPipelineCommands{{
    {Kind::Discover, "discover",
     "crd discover [options] INPUT… -o OUT.h5\n\n"
     "Blind discovery (paper §4.2): count every chunk and file across all ranks and label\n"
     "those seen more than a threshold, minus stop chunks"},
    {Kind::Label, "label",
     "crd label [options] EXPERT_INPUT… -o LABELS.h5\n\n"
     "Informed discovery (paper §4.2): every chunk of an expert corpus (e.g. Wikipedia, a\n"
     "bank's pages), minus stop chunks, becomes a label"},
    {Kind::Detect, "detect",
     "crd detect [options] INPUT… --labels L.h5 -o OUT.h5\n\n"
     "Detection (paper §4.3): containment of every page and badness of every URL-prefix\n"
     "neighborhood against labeled sets, with where each match comes from"},
    {Kind::Run, "run",
     "crd run [options] INPUT… -o OUT.h5\n\n"
     "Blind discovery then detection in one job, reading the corpus once"},
}};

const char* usage_of(Kind kind) { return kPipelineCommands[static_cast<std::size_t>(kind)].usage; }

// A pipeline command's options, bound to the values they fill.
struct PipelineOptions {
  pipeline::CommonOptions common;
  pipeline::DiscoverOptions discover_options;
  pipeline::DetectPipelineOptions detect_options;
  std::string config_path;
  po::options_description visible;

  explicit PipelineOptions(Kind kind) : visible(usage_of(kind)) {
    visible.add(corpus_options(common, kind != Kind::Detect)).add(chunking_options(common));
    const bool discovers = kind == Kind::Discover || kind == Kind::Run;
    visible.add(discovery_options(discover_options, discovers, discovers));
    if (kind == Kind::Detect || kind == Kind::Run) visible.add(detection_options(detect_options, kind == Kind::Detect));
    visible.add(run_options(common, config_path));
    visible.add_options()("help,h", "show this help");
  }
};

// Collective: parses the options and runs the pipeline on `transport`.
int run_pipeline(int argc, char** argv, Kind kind, comm::Transport& transport) {
  PipelineOptions options(kind);
  auto& [common, discover_options, detect_options, config_path, visible] = options;
  // Errors are reported here, while the transport is up: rank 0 prints agreed errors, every rank exits alike.
  return run_reporting_errors(argv[0], transport.rank() == 0, &transport, [&] {
    auto parsed = parse_command(argc, argv, visible, "no input given (files, directories or @LIST)", "config");
    if (common.resume && common.work_dir.empty()) throw UsageError("--resume needs --work-dir");
    std::vector<std::string> side_inputs{discover_options.stop_chunks};
    side_inputs.insert(side_inputs.end(), detect_options.labels.begin(), detect_options.labels.end());
    std::erase(side_inputs, std::string());
    common.side_inputs = side_inputs;
    std::vector<std::string> also_reads = side_inputs;
    also_reads.push_back(config_path);
    start_corpus_job(transport, argc, argv, parsed, common, also_reads);
    switch (kind) {
      case Kind::Discover: pipeline::run_discover(common, discover_options, transport); break;
      case Kind::Label: pipeline::run_label(common, discover_options, transport); break;
      case Kind::Detect: pipeline::run_detect(common, discover_options, detect_options, transport); break;
      case Kind::Run: pipeline::run_discover_detect(common, discover_options, detect_options, transport); break;
    }
    return 0;
  });
}

int pipeline_command(int argc, char** argv, Kind kind) {
  if (print_help(argc, argv, PipelineOptions(kind).visible)) return 0;
  comm::JobTransport job(argc, argv);
  return run_pipeline(argc, argv, kind, job.transport());
}

}  // namespace

int discover_command(int argc, char** argv) { return pipeline_command(argc, argv, Kind::Discover); }
int label_command(int argc, char** argv) { return pipeline_command(argc, argv, Kind::Label); }
int detect_command(int argc, char** argv) { return pipeline_command(argc, argv, Kind::Detect); }
int run_command(int argc, char** argv) { return pipeline_command(argc, argv, Kind::Run); }

int run_pipeline_on(comm::Transport& transport, int argc, char** argv) {
  const std::string name = argc > 0 ? argv[0] : "";
  for (const auto& command : kPipelineCommands)
    if (name == command.name) return run_pipeline(argc, argv, command.kind, transport);
  throw UsageError("not a pipeline command: '" + name + "'");
}

}  // namespace crd::cli
