// The /run group and root attributes of a result file.
#include "crd/pipeline/run_report.hpp"

#include <algorithm>
#include <tuple>

#include "crd/base/version.hpp"
#include "crd/comm/collectives.hpp"
#include "crd/output/schema.hpp"
#include "crd/shuffle/sort_across_ranks.hpp"
#include "progress.hpp"

namespace crd::pipeline {

namespace {
std::string& last_phase() {
  static std::string phase;  // one process, one pipeline at a time
  return phase;
}
}  // namespace

std::string last_started_phase() { return last_phase(); }

void PhaseTimer::start(std::string phase) {
  stop();
  last_phase() = phase;
  running_ = std::move(phase);
  since_ = std::chrono::steady_clock::now();
}

void PhaseTimer::stop() {
  if (running_.empty()) return;
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - since_).count();
  phases_.emplace_back(std::move(running_), s);
  running_.clear();
}

double PhaseTimer::seconds(const std::string& phase) const {
  double total = 0;
  for (const auto& [name, s] : phases_)
    if (name == phase) total += s;
  return total;
}

namespace {

// One counter as it travels.
struct NamedCount {
  std::string name;
  std::uint64_t value = 0;
  static constexpr auto fields() { return std::tuple(&NamedCount::name, &NamedCount::value); }
};

}  // namespace

Counters merge_counters(comm::Transport& transport, const Counters& local) {
  std::vector<NamedCount> mine;
  for (const auto& [name, value] : local.values()) mine.push_back({name, value});
  Counters merged;
  for (const auto& part : comm::allgather(transport, mine))
    for (const NamedCount& c : part) merged.add(c.name, c.value);
  return merged;
}

namespace {

// A name → value table, written by rank 0 alone (every rank holds the same values).
void write_named_values(output::ResultFile& file, comm::Transport& transport,
                        const output::Table<output::NamedValueRow>& table, const Counters& values) {
  std::vector<output::NamedValueRow> rows;
  if (transport.rank() == 0)
    for (const auto& [name, value] : values.values()) rows.push_back({name, value});
  output::write_table(file, table, rows);
}

void write_timings(output::ResultFile& file, comm::Transport& transport, const PhaseTimer& timer) {
  // Phases run in the same order on every rank; each row is the slowest rank's time.
  std::vector<double> seconds;
  for (const auto& phase : timer.phases()) seconds.push_back(phase.second);
  comm::max(transport, std::span<double>(seconds));
  std::vector<output::TimingRow> rows;
  if (transport.rank() == 0)
    for (std::size_t i = 0; i < seconds.size(); ++i) rows.push_back({timer.phases()[i].first, seconds[i]});
  output::write_table(file, output::schema::kTimings, rows);
}

void write_errors(output::ResultFile& file, comm::Transport& transport,
                  const std::vector<io::ReadError>& local, std::size_t round_bytes) {
  auto sorted = shuffle::sort_across_ranks(transport, local, FieldLess{}, round_bytes);
  output::write_table(file, output::schema::kErrors, sorted);
}

}  // namespace

void write_run_report(output::ResultFile& file, comm::Transport& transport, const RunInfo& info,
                      const Counters& global_counters, const Counters& resources, const PhaseTimer& timer,
                      const std::vector<io::ReadError>& local_errors) {
  // Every rank computes the same timestamp string only if clocks agree to the second; take rank 0's.
  const std::string created = comm::broadcast_from_rank0<std::string>(transport, transport.rank() == 0 ? utc_now() : std::string());
  namespace schema = output::schema;
  schema::set_attribute(file, schema::attr::kCrdVersion, version());
  schema::set_attribute(file, schema::attr::kCrdGitCommit, git_commit());
  schema::set_attribute(file, schema::attr::kCrdBuildType, build_type());
  schema::set_attribute(file, schema::attr::kSchemaVersion, static_cast<std::int64_t>(kSchemaVersion));
  schema::set_attribute(file, schema::attr::kCommand, info.command);
  schema::set_attribute(file, schema::attr::kCommandLine, info.command_line);
  schema::set_attribute(file, schema::attr::kNranks, static_cast<std::uint64_t>(transport.size()));
  schema::set_attribute(file, schema::attr::kCreated, created);
  schema::set_attribute(file, schema::attr::kConfig, info.config_ini);

  write_named_values(file, transport, schema::kCounters, global_counters);
  write_named_values(file, transport, schema::kResources, resources);
  write_timings(file, transport, timer);
  write_errors(file, transport, local_errors, 8u << 20);
}

}  // namespace crd::pipeline
