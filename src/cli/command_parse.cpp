// Command-line and config-file parsing (command_parse.hpp).
#include "command_parse.hpp"

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "crd/base/error.hpp"
#include "crd/base/human_bytes.hpp"
#include "dependent_defaults.hpp"
#include "preset_lookup.hpp"

namespace crd::cli {
namespace po = boost::program_options;

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
    throw UsageError("config file '" + path + "' is larger than " + human_bytes(kMaxConfigBytes) +
                     ": not a crd config");
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
  if (const auto* vs = boost::any_cast<std::vector<std::string>>(&a)) {
    std::string out;
    for (const auto& item : *vs) out += (out.empty() ? "" : ",") + item;
    return out;
  }
  return "?";
}

// Reads the config file into `parsed` (the command line's values stay: stored first).
void read_config(ParsedCommand& parsed, const po::options_description& options) {
  // A preset's name (--config quickstart) is read from the installed presets; the resolved path
  // replaces it, so the option's variable (and the -o guard) see the file read.
  const auto path = resolve_config_path(parsed.vm["config"].as<std::string>());
  parsed.vm.at("config").value() = path;
  parsed.config_file = path;
  std::istringstream in(read_config_file(path));
  auto from_file = po::parse_config_file(in, options, true);
  std::set<std::string> seen;
  for (const auto& opt : from_file.options) {
    if (!opt.unregistered) continue;
    if (find_option(opt.string_key) == nullptr) {
      const std::string close = closest_option(opt.string_key);
      throw UsageError("config file '" + path + "': unknown option '" + opt.string_key + "'" +
                       (close.empty() ? "" : " (did you mean --" + close + "?)"));
    }
    if (seen.insert(opt.string_key).second) parsed.ignored.push_back(opt.string_key);
  }
  po::store(from_file, parsed.vm);
}

}  // namespace

ParsedCommand parse_command(int argc, char** argv, const OptionBinder& options, const char* no_inputs) {
  ParsedCommand parsed;
  po::options_description all = options.all();
  all.add_options()("input", po::value<std::vector<std::string>>(&parsed.inputs), "");
  po::positional_options_description positional;
  positional.add("input", -1);
  try {
    po::store(po::command_line_parser(argc, argv).options(all).positional(positional).run(), parsed.vm);
    // The file names options only: inputs are given on the command line.
    if (options.has("config") && parsed.vm.count("config") != 0) read_config(parsed, options.all());
    parsed.dependent_defaults = apply_dependent_defaults(parsed.vm);
    po::notify(parsed.vm);
  } catch (const po::error& e) {
    throw UsageError(e.what());
  }
  if (no_inputs != nullptr && parsed.inputs.empty()) throw UsageError(no_inputs);
  std::ostringstream ini;
  std::ostringstream results;
  ini << "# crd effective options\n";
  for (const auto& b : options.bound()) {
    const std::string name = b.spec->name;
    // --config and --verbose say how the options were given, not what they are.
    if (name == "config" || name == "verbose" || parsed.vm.count(name) == 0) continue;
    const std::string line = name + " = " + render_value(parsed.vm[name]) + "\n";
    for (const auto& d : parsed.dependent_defaults)
      if (d.option == name) ini << "# " << name << " not given: " << d.value << " is " << d.reason << "\n";
    ini << line;
    if (b.spec->effect == Effect::ChangesResults) results << line;
  }
  parsed.config_ini = ini.str();
  parsed.results_config = results.str();
  return parsed;
}

bool asks_for_help(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    const std::string_view a = argv[i];
    if (a == "--help" || a == "-h") return true;
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
