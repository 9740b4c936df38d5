// Option groups and parsing for crd's subcommands.
#include "option_groups.hpp"

#include <cmath>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <set>
#include <sstream>

#include "neardup_options.hpp"
#include "option_values.hpp"
#include "preset_lookup.hpp"
#include "crd/base/error.hpp"
#include "crd/base/human_bytes.hpp"

namespace crd::cli {

namespace {

std::vector<std::string> split_list(const std::string& s) {
  std::vector<std::string> out;
  std::stringstream in(s);
  std::string item;
  while (std::getline(in, item, ',')) {
    for (auto& c : item) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (!item.empty()) out.push_back(item);
  }
  return out;
}

std::string join_list(const std::vector<std::string>& items) {
  std::string out;
  for (const auto& item : items) out += (out.empty() ? "" : ",") + item;
  return out;
}

}  // namespace

po::options_description corpus_options(pipeline::CommonOptions& c, bool with_samples) {
  po::options_description d("Input and cleaning");
  d.add_options()
      ("skip-missing", po::bool_switch(&c.expand.skip_missing),
       "go on without inputs that cannot be found (listed in /run/errors) instead of stopping")
      ("max-depth", po::value<int>()->default_value(c.scan.recursion.max_depth)->notifier([&c](int v) {
         if (v < 1) throw UsageError("option --max-depth: must be at least 1");
         c.scan.recursion.max_depth = v;
       }), "drop URLs with more path components than this (recursion errors)")
      ("max-repeat", po::value<int>()->default_value(c.scan.recursion.max_repeat)->notifier([&c](int v) {
         if (v < 0) throw UsageError("option --max-repeat: must be ≥ 0");
         c.scan.recursion.max_repeat = v;
       }), "drop URLs in which one path component occurs more often than this (0 = off)")
      ("reader-thread", choice_value(c.reader_thread, "reader-thread"),
       "read and inflate on a second thread per rank (auto: for .gz archives, when the node has a "
       "spare core per rank)");
  if (with_samples) {
    d.add_options()("sample-bytes", po::value<Count>()->default_value({c.scan.sample_bytes})->notifier([&c](const Count& v) {
      if (v.value == 0 || v.value > 65536) throw UsageError("option --sample-bytes: must be 1..65536");
      c.scan.sample_bytes = v.value;
    }), "bytes of each labeled chunk's text kept as its sample");
  }
  return d;
}

po::options_description chunking_options(pipeline::CommonOptions& c, bool with_chunker) {
  po::options_description d(with_chunker ? "Reading and chunking" : "Reading");
  d.add_options()
      ("max-record-bytes", size_value(c.scan.read.max_record_bytes),
       "skip archive records (and pages) larger than this without reading them");
  if (!with_chunker) return d;
  d.add_options()
      ("chunker", choice_value(c.scan.chunker, "chunker"),
       "scan: split raw markup (fast); dom: split the gumbo HTML5 tree's visible text; sentence: that text's sentences (ICU); "
       "winnow: winnowed word grams of the text (survive edits; docs/winnow.md)")
      ("gram-words", u32_value(c.scan.chunking.gram_words, "gram-words", 1, chunk::kMaxGramWords),
       "--chunker winnow: words per gram (K)")
      ("window", u32_value(c.scan.chunking.window, "window", 1, chunk::kMaxWindow),
       "--chunker winnow: grams per window (W); every shared run of W + K - 1 words is found")
      ("tags", po::value<std::string>()->default_value(join_list(c.scan.chunking.tags))->notifier([&c](const std::string& v) {
         auto tags = split_list(v);
         if (tags.empty()) throw UsageError("option --tags: needs at least one tag name");
         c.scan.chunking.tags = tags;
       }), "boundary tags, comma-separated")
      ("boundary-match", choice_value(c.scan.chunking.boundary_match, "boundary-match"),
       "tag: <p> but not <pre>; prefix: any tag name starting with a boundary tag (<p also splits at "
       "<pre, <param), as the paper's released code");
  return d;
}

po::options_description run_options(pipeline::CommonOptions& c, std::string& config_path, bool with_checkpoints) {
  po::options_description d("Output and run control");
  if (with_checkpoints) {
    d.add_options()
        ("work-dir", po::value<std::string>(&c.work_dir),
         "keep each rank's checkpoints of completed phases here (node-local scratch is fine)")
        ("resume", po::bool_switch(&c.resume),
         "continue a killed job from the checkpoints in --work-dir (same inputs, options and rank count)");
  }
  d.add_options()
      ("output,o", po::value<std::string>(&c.output)->required(),
       "result file (HDF5); written as NAME.tmp-* and renamed when complete")
      ("config", po::value<std::string>(&config_path), "read options from this INI file (command line wins)")
      ("shuffle-buffer", po::value<ByteSize>()->default_value(ByteSize::of(c.round_bytes))->notifier([&c](const ByteSize& v) {
         c.round_bytes = v.value;
         if (c.round_bytes < 4096) throw UsageError("option --shuffle-buffer: must be at least 4K");
       }), "payload each rank sends per all-to-all round (bounds message memory)")
      ("memory", size_value(c.memory_budget),
       "memory budget per rank (e.g. 8G; 0 = unchecked): discover, run and detect count in passes over the "
       "hash space to stay within it; other commands fail early, naming a rank count that fits")
      ("progress-interval", po::value<double>()->default_value(c.progress_interval)->notifier([&c](double v) {
         if (!std::isfinite(v) || v < 0) throw UsageError("option --progress-interval: must be a number ≥ 0");
         c.progress_interval = v;
       }), "seconds between progress lines on stderr (0 = none)");
  return d;
}

po::options_description discovery_options(pipeline::DiscoverOptions& o, bool with_thresholds, bool with_keep_counts) {
  po::options_description d("Discovery (labeling)");
  if (with_keep_counts) {
    d.add_options()("keep-counts", po::bool_switch(&o.keep_counts),
                    "also write every distinct chunk and file hash with its count (for crd merge)");
  }
  if (with_thresholds) {
    d.add_options()
        ("chunk-threshold", count_value(o.chunk_threshold), "label chunks occurring more than this many times")
        ("file-threshold", count_value(o.file_threshold), "label whole files occurring more than this many times")
        ("chunk-top", count_value(o.chunk_top), "of those, label only the N most frequent chunks (ties by hash; 0 = no limit)")
        ("file-top", count_value(o.file_top), "of those, label only the N most frequent files (ties by hash; 0 = no limit)");
  }
  d.add_options()
      ("stop-chunks", po::value<std::string>(&o.stop_chunks),
       "file of stop chunks/files: one 40-hex SHA-1 or one literal chunk per line")
      ("min-chunk-length", count_value(o.min_chunk_length),
       "treat chunks shorter than this many normalized bytes as stop chunks");
  return d;
}

po::options_description detection_options(pipeline::DetectPipelineOptions& o, bool with_labels) {
  po::options_description d("Detection (partial matches and bad neighborhoods)");
  detect::DetectOptions& t = o.detect;
  if (with_labels) {
    d.add_options()
        ("labels", po::value<std::vector<std::string>>(&o.labels)->required(),
         "labeled set: a crd label / discover / run result (repeatable; sets are merged)")
        ("join", choice_value(o.join, "join"),
         "auto | replicated (every rank holds L) | partitioned (L split by hash prefix)")
        ("replicate-max", count_value(o.replicate_max), "auto join: replicate L when it has at most this many labels")
        ("pairs", count_value(o.pairs),
         "per flagged page, its similarity pair with the K labeled documents it overlaps most (/detection/pairs; "
         "labels from crd label)");
  }
  d.add_options()
      ("page-threshold", threshold_value(t.page_threshold, "page-threshold"),
       "flag pages whose containment exceeds this (auto = mean + σ over all pages; binomial[:R[:ALPHA]] = more labeled "
       "chunks than a chance rate R explains at level ALPHA, the rule for --chunker winnow: docs/winnow.md)")
      ("min-labeled", count_value(t.min_labeled), "flag a page only with at least this many labeled chunks")
      ("min-neighborhood-labeled", count_value(t.min_neighborhood_labeled),
       "flag a neighborhood only with at least this many labeled chunks (paper §8.1: 1001)")
      ("neighborhood-threshold", threshold_value(t.neighborhood_threshold, "neighborhood-threshold"),
       "flag neighborhoods whose badness exceeds this (auto = mean + σ over all neighborhoods)")
      ("badness", choice_value(t.badness, "badness"),
       "pages: mean page containment (the paper's formula); chunks: labeled / chunks over the neighborhood")
      ("max-neighborhood-depth", po::value<int>()->default_value(t.max_neighborhood_depth)->notifier([&t](int v) {
         if (v < -1) throw UsageError("option --max-neighborhood-depth: must be ≥ -1 (-1 = no limit)");
         t.max_neighborhood_depth = v;
       }),
       "deepest URL prefix scored as a neighborhood (0 = hosts only, -1 = no limit)")
      ("provenance-samples", count_value(t.provenance_samples), "page URLs kept per label as examples of where it occurs");
  return d;
}

bool is_crd_option(const std::string& name) {
  static const std::set<std::string> names = [] {
    pipeline::CommonOptions common;
    pipeline::DiscoverOptions discover;
    pipeline::DetectPipelineOptions detect;
    std::string config;
    po::options_description all;
    all.add(corpus_options(common, true)).add(chunking_options(common)).add(run_options(common, config)).add(discovery_options(discover, true));
    all.add(detection_options(detect, true));
    pipeline::NeardupOptions neardup;
    all.add(neardup_options(neardup));
    std::set<std::string> out;
    for (const auto& opt : all.options()) out.insert(opt->long_name());
    for (const char* extra : {"show", "top"}) out.insert(extra);
    return out;
  }();
  return names.count(name) != 0;
}

namespace {

// A config file holds a few dozen options; the cap keeps --config /dev/zero (or a pipe that never
// ends) from reading until memory runs out.
constexpr std::size_t kMaxConfigBytes = 1u << 20;

std::string read_config_file(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) throw UsageError("config file '" + path + "' is a directory");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw UsageError("cannot read config file '" + path + "'");
  std::string text(kMaxConfigBytes + 1, '\0');
  in.read(text.data(), static_cast<std::streamsize>(text.size()));
  if (in.bad()) throw UsageError("cannot read config file '" + path + "'");
  text.resize(static_cast<std::size_t>(in.gcount()));
  if (text.size() > kMaxConfigBytes)
    throw UsageError("config file '" + path + "' is larger than " + human_bytes(kMaxConfigBytes) + ": not a crd config");
  return text;
}

std::string render_value(const po::variable_value& v) {
  const auto& a = v.value();
  if (const auto* s = boost::any_cast<std::string>(&a)) return *s;
  if (const auto* i = boost::any_cast<int>(&a)) return std::to_string(*i);
  if (const auto* n = boost::any_cast<Count>(&a)) return std::to_string(n->value);
  if (const auto* b = boost::any_cast<ByteSize>(&a)) return b->text;
  if (const auto* f = boost::any_cast<double>(&a)) {
    std::ostringstream out;
    out << *f;
    return out.str();
  }
  if (const auto* b = boost::any_cast<bool>(&a)) return *b ? "true" : "false";
  if (const auto* vs = boost::any_cast<std::vector<std::string>>(&a)) return join_list(*vs);
  return "?";
}

}  // namespace

ParsedCommand parse_command(int argc, char** argv, const po::options_description& visible, const char* no_inputs,
                            const std::string& config_path_option) {
  ParsedCommand parsed;
  po::options_description all;
  all.add(visible);
  all.add_options()("input", po::value<std::vector<std::string>>(&parsed.inputs), "");
  po::positional_options_description positional;
  positional.add("input", -1);
  try {
    po::store(po::command_line_parser(argc, argv).options(all).positional(positional).run(), parsed.vm);
    if (!config_path_option.empty() && parsed.vm.count(config_path_option) != 0) {
      // A preset's name (--config quickstart) is read from the installed presets; the resolved
      // path replaces it, so the option's variable (and the -o guard) see the file read.
      const auto path = resolve_config_path(parsed.vm[config_path_option].as<std::string>());
      parsed.vm.at(config_path_option).value() = path;
      std::istringstream in(read_config_file(path));
      // A preset may serve several commands (label and check, say): options of other crd commands
      // are ignored, names no crd command knows are errors.
      auto from_file = po::parse_config_file(in, visible, true);
      for (const auto& opt : from_file.options) {
        if (opt.unregistered && !is_crd_option(opt.string_key))
          throw UsageError("config file '" + path + "': unknown option '" + opt.string_key + "'");
      }
      po::store(from_file, parsed.vm);
    }
    po::notify(parsed.vm);
  } catch (const po::error& e) {
    throw UsageError(e.what());
  }
  if (no_inputs != nullptr && parsed.inputs.empty()) throw UsageError(no_inputs);
  std::ostringstream ini;
  ini << "# crd effective options\n";
  for (const auto& opt : visible.options()) {
    const auto& name = opt->long_name();
    if (name == config_path_option || name == "help" || parsed.vm.count(name) == 0) continue;
    ini << name << " = " << render_value(parsed.vm[name]) << "\n";
  }
  parsed.config_ini = ini.str();
  return parsed;
}

bool print_help(int argc, char** argv, const po::options_description& visible) {
  for (int i = 1; i < argc; ++i) {
    const std::string_view a = argv[i];
    if (a == "--help" || a == "-h") {
      std::cout << visible << "\n";
      return true;
    }
  }
  return false;
}

std::string join_command_line(int argc, char** argv) {
  std::string out;
  for (int i = 0; i < argc; ++i) {
    if (i > 0) out += ' ';
    out += argv[i];
  }
  return out;
}

}  // namespace crd::cli
