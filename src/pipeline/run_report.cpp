// The /run group and root attributes of a result file.
#include "crd/pipeline/run_report.hpp"

#include <algorithm>
#include <ctime>

#include "crd/core/version.hpp"
#include "crd/shuffle/byte_codec.hpp"
#include "crd/shuffle/sort_across_ranks.hpp"

namespace crd::pipeline {

void PhaseTimer::start(std::string phase) {
  stop();
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

Counters merge_counters(comm::Transport& transport, const Counters& local) {
  shuffle::ByteWriter w;
  for (const auto& [name, value] : local.values()) w.str(name).pod(value);
  std::vector<std::byte> all;
  std::vector<std::uint64_t> counts;
  transport.allgatherv(w.bytes(), all, counts);
  Counters merged;
  shuffle::ByteReader r(all);
  while (!r.done()) {
    const std::string_view name = r.str();
    merged.add(name, r.pod<std::uint64_t>());
  }
  return merged;
}

namespace {

std::string utc_now() {
  const std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

// A name → value table, written by rank 0 alone (every rank holds the same values).
void write_named_values(output::ResultFile& file, comm::Transport& transport, const std::string& group,
                        const Counters& values) {
  std::vector<std::string> names;
  std::vector<std::uint64_t> numbers;
  if (transport.rank() == 0) {
    for (const auto& [name, value] : values.values()) {
      names.push_back(name);
      numbers.push_back(value);
    }
  }
  file.create_group(group);
  file.write_strings(group + "/name", names);
  file.write_column(group + "/value", std::span<const std::uint64_t>(numbers));
}

void write_timings(output::ResultFile& file, comm::Transport& transport, const PhaseTimer& timer) {
  // Phases run in the same order on every rank; each row is the slowest rank's time.
  std::vector<double> seconds;
  std::vector<std::string> names;
  for (const auto& [name, s] : timer.phases()) {
    names.push_back(name);
    seconds.push_back(s);
  }
  transport.allreduce(std::span<double>(seconds), comm::ReduceOp::Max);
  const bool root = transport.rank() == 0;
  file.create_group("/run/timings");
  file.write_strings("/run/timings/phase", root ? names : std::vector<std::string>{});
  file.write_column("/run/timings/seconds", root ? std::span<const double>(seconds) : std::span<const double>());
}

void write_errors(output::ResultFile& file, comm::Transport& transport,
                  const std::vector<io::ReadError>& local, std::size_t round_bytes) {
  auto sorted = shuffle::sort_across_ranks(
      transport, local,
      [](const io::ReadError& a, const io::ReadError& b) {
        return std::tie(a.file, a.offset, a.reason) < std::tie(b.file, b.offset, b.reason);
      },
      [](const io::ReadError& e, shuffle::ByteWriter& w) { w.str(e.file).pod(e.offset).str(e.reason); },
      [](shuffle::ByteReader& r) {
        io::ReadError e;
        e.file = std::string(r.str());
        e.offset = r.pod<std::uint64_t>();
        e.reason = std::string(r.str());
        return e;
      },
      round_bytes);
  std::vector<std::string> files;
  std::vector<std::string> reasons;
  std::vector<std::uint64_t> offsets;
  for (auto& e : sorted) {
    files.push_back(std::move(e.file));
    offsets.push_back(e.offset);
    reasons.push_back(std::move(e.reason));
  }
  file.create_group("/run/errors");
  file.write_strings("/run/errors/file", files);
  file.write_column("/run/errors/offset", std::span<const std::uint64_t>(offsets));
  file.write_strings("/run/errors/reason", reasons);
}

}  // namespace

void write_run_report(output::ResultFile& file, comm::Transport& transport, const RunInfo& info,
                      const Counters& global_counters, const Counters& resources, const PhaseTimer& timer,
                      const std::vector<io::ReadError>& local_errors) {
  // Every rank computes the same timestamp string only if clocks agree to the second; take rank 0's.
  const std::string created = transport.from_rank0(transport.rank() == 0 ? utc_now() : std::string());
  file.set_attribute("/", "crd_version", version());
  file.set_attribute("/", "schema_version", static_cast<std::int64_t>(kSchemaVersion));
  file.set_attribute("/", "command", info.command);
  file.set_attribute("/", "command_line", info.command_line);
  file.set_attribute("/", "nranks", static_cast<std::uint64_t>(transport.size()));
  file.set_attribute("/", "created", created);
  file.set_attribute("/", "config", info.config_ini);

  write_named_values(file, transport, "/run/counters", global_counters);
  write_named_values(file, transport, "/run/resources", resources);
  write_timings(file, transport, timer);
  write_errors(file, transport, local_errors, 8u << 20);
}

}  // namespace crd::pipeline
