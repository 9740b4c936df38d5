// Writes a result file with every ResultFile column kind, from any rank count; rank 1 holds no
// rows. Values depend only on the global row index, so check_result_file.py needs no rank info.
// Under mpirun (parallel HDF5), or with --threads N on N thread ranks (rank 0 writes alone).
#include <cstdio>
#include <string>
#include <vector>

#include "crd/comm/local_transport.hpp"
#include "crd/comm/mpi_transport.hpp"
#include "crd/output/result_file.hpp"

namespace {

// Rows per rank: uneven, and rank 1 (when present) has none.
std::uint64_t rows_on(int rank, std::uint64_t total, int nranks) {
  if (nranks == 1) return total;
  std::vector<std::uint64_t> weight(static_cast<std::size_t>(nranks));
  std::uint64_t sum = 0;
  for (int r = 0; r < nranks; ++r) sum += weight[static_cast<std::size_t>(r)] = r == 1 ? 0 : static_cast<std::uint64_t>(r + 1);
  std::uint64_t given = 0, mine = 0;
  for (int r = 0; r < nranks; ++r) {
    std::uint64_t share = r == nranks - 1 ? total - given : total * weight[static_cast<std::size_t>(r)] / sum;
    if (r == rank) mine = share;
    given += share;
  }
  return mine;
}

struct Slice {
  std::uint64_t begin, end;
};

Slice slice_of(crd::comm::Transport& t, std::uint64_t total) {
  const std::uint64_t n = rows_on(t.rank(), total, t.size());
  const std::uint64_t begin = t.exscan_sum(n);
  return {begin, begin + n};
}

std::string text_of(std::uint64_t i) {
  if (i % 17 == 0) return "";
  return "row-" + std::to_string(i) + std::string(i % 9, 'x');
}

void write(crd::output::ResultFile& f, crd::comm::Transport& t, std::uint64_t n, const std::string& group) {
  const Slice s = slice_of(t, n);
  std::vector<std::uint64_t> u64;
  std::vector<std::uint32_t> u32;
  std::vector<std::int32_t> i32;
  std::vector<double> f64;
  std::vector<std::uint8_t> u8, matrix;
  std::vector<std::string> strings;
  std::vector<std::vector<std::uint32_t>> ragged;
  for (std::uint64_t i = s.begin; i < s.end; ++i) {
    u64.push_back(i * 1000003 + (std::uint64_t{1} << 40));
    u32.push_back(static_cast<std::uint32_t>(i * 7 + 3));
    i32.push_back(static_cast<std::int32_t>(i % 2 ? -static_cast<std::int64_t>(i) : static_cast<std::int64_t>(i)));
    f64.push_back(static_cast<double>(i) / 8.0 - 3.5);
    u8.push_back(static_cast<std::uint8_t>(i % 251));
    for (std::uint64_t k = 0; k < 20; ++k) matrix.push_back(static_cast<std::uint8_t>((i * 20 + k) % 256));
    strings.push_back(text_of(i));
    std::vector<std::uint32_t> row;
    for (std::uint64_t k = 0; k < i % 4; ++k) row.push_back(static_cast<std::uint32_t>(i * 10 + k));
    ragged.push_back(row);
  }
  f.create_group(group);
  f.write_column(group + "/u64", std::span<const std::uint64_t>(u64));
  f.write_column(group + "/u32", std::span<const std::uint32_t>(u32));
  f.write_column(group + "/i32", std::span<const std::int32_t>(i32));
  f.write_column(group + "/f64", std::span<const double>(f64));
  f.write_column(group + "/u8", std::span<const std::uint8_t>(u8));
  f.write_matrix(group + "/hash", matrix, 20);
  f.write_strings(group + "/text", strings);
  f.write_ragged(group + "/lists", ragged);
  f.set_attribute(group, "rows", n);
}

void write_all(crd::comm::Transport& t, const std::string& out) {
  crd::output::ResultFile f(t, out);
  write(f, t, 1000, "/small");
  write(f, t, 150000, "/big/nested");  // >= 1 MiB columns: chunked + deflate
  write(f, t, 0, "/empty");
  f.create_group("/a/b/c");
  f.create_group("/a/b");  // exists already: fine
  f.set_attribute("/", "title", "crd result test");
  f.set_attribute("/", "empty_text", "");
  f.set_attribute("/", "utf8", std::string_view("caf\xc3\xa9"));
  f.set_attribute("/", "count", std::uint64_t{18446744073709551615u});
  f.set_attribute("/", "delta", std::int64_t{-42});
  f.set_attribute("/", "ratio", 0.125);
  f.set_attribute("/small/u64", "unit", "bytes");
  f.set_attribute("/", "ratio", 2.5);  // replaced, not duplicated
  f.commit();
}

}  // namespace

int main(int argc, char** argv) {
  if (argc == 4 && std::string(argv[1]) == "--threads") {
    try {
      crd::comm::run_local(std::stoi(argv[2]), [&](crd::comm::Transport& t) { write_all(t, argv[3]); });
    } catch (const std::exception& e) {
      std::fprintf(stderr, "result_file_writer: %s\n", e.what());
      return 1;
    }
    return 0;
  }
  if (argc != 2) {
    std::fprintf(stderr, "usage: result_file_writer [--threads N] OUT.h5\n");
    return 2;
  }
  crd::comm::MpiSession session(argc, argv);
  crd::comm::MpiTransport t;
  try {
    write_all(t, argv[1]);
  } catch (const std::exception& e) {
    crd::comm::abort_job(e.what());
  }
  return 0;
}
