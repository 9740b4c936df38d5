// The shared frame of the corpus-reading commands (corpus_job.hpp).
#include "corpus_job.hpp"

#include "commands.hpp"
#include "crd/comm/job_transport.hpp"
#include "crd/pipeline/output_check.hpp"
#include "crd/pipeline/shared_paths.hpp"

namespace crd::cli {

int run_mpi_command(int argc, char** argv, const po::options_description& visible,
                    const std::function<int(comm::Transport& transport)>& body) {
  if (print_help(argc, argv, visible)) return 0;
  comm::JobTransport job(argc, argv);
  comm::Transport& transport = job.transport();
  return run_reporting_errors(argv[0], transport.rank() == 0, &transport, [&] { return body(transport); });
}

void start_corpus_job(comm::Transport& transport, int argc, char** argv, ParsedCommand& parsed,
                      pipeline::CommonOptions& common, const std::vector<std::string>& also_reads) {
  common.inputs = std::move(parsed.inputs);
  common.info = {argv[0], join_command_line(argc, argv), parsed.config_ini};
  std::vector<std::string> reads = common.inputs;
  for (const auto& path : also_reads)
    if (!path.empty()) reads.push_back(path);
  pipeline::check_output_before_run(transport, common.output, reads, common.work_dir);
  pipeline::check_output_dir_shared(transport, common.output);
}

int run_tokenizing_command(int argc, char** argv, const std::string& usage, const po::options_description& own,
                           pipeline::CommonOptions& common, const std::function<void()>& check,
                           const std::function<void(comm::Transport&)>& run, const std::string* also_reads) {
  std::string config_path;
  po::options_description visible(usage);
  visible.add(corpus_options(common, false)).add(chunking_options(common, false));
  visible.add(own);
  visible.add(run_options(common, config_path, false));
  visible.add_options()("help,h", "show this help");
  return run_mpi_command(argc, argv, visible, [&](comm::Transport& transport) {
    auto parsed = parse_command(argc, argv, visible, "no input given (files, directories or @LIST)", "config");
    check();
    start_corpus_job(transport, argc, argv, parsed, common, {config_path, also_reads ? *also_reads : ""});
    run(transport);
    return 0;
  });
}

}  // namespace crd::cli
