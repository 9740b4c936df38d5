// Command-line and config-file parsing (command_parse.hpp).
#include "command_parse.hpp"

#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "crd/base/error.hpp"
#include "crd/base/human_bytes.hpp"
#include "crd/base/printable.hpp"
#include "dependent_defaults.hpp"
#include "preset_lookup.hpp"

namespace crd::cli {
namespace po = boost::program_options;

namespace {

// A config file holds a few dozen options; the cap keeps --config /dev/zero (or a pipe that never
// ends) from reading until memory runs out.
constexpr std::size_t kMaxConfigBytes = 1u << 20;

// `note`: where a name was looked for as a preset, for the message when no file has it.
std::string read_config_file(const std::string& path, const std::string& note) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) throw UsageError("config file '" + path + "' is a directory" + note);
  std::ifstream in(path, std::ios::binary);
  if (!in) throw UsageError("cannot read config file '" + path + "'" + note);
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

// The command line with every older spelling of an option (OptionBinder::alias) replaced by the
// option's name, so that only the option itself is parsed, stored and recorded in /config.
std::vector<std::string> canonical_arguments(int argc, char** argv, const OptionBinder& binder) {
  std::vector<std::string> args;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a.rfind("--", 0) == 0) {
      const std::size_t end = std::min(a.find('='), a.size());
      const std::string_view name = binder.canonical(std::string_view(a).substr(2, end - 2));
      a = "--" + std::string(name) + a.substr(end);
    }
    args.push_back(std::move(a));
  }
  return args;
}

// The same for a config file's "name = value" lines.
std::string canonical_config(const std::string& text, const OptionBinder& binder) {
  std::istringstream in(text);
  std::string out, line;
  while (std::getline(in, line)) {
    const std::size_t first = line.find_first_not_of(" \t");
    const std::size_t eq = line.find('=');
    if (first != std::string::npos && eq != std::string::npos && eq > first) {
      const std::size_t last = line.find_last_not_of(" \t", eq - 1);
      const std::string_view key = std::string_view(line).substr(first, last + 1 - first);
      const std::string_view name = binder.canonical(key);
      if (name != key) line = line.substr(0, first) + std::string(name) + line.substr(last + 1);
    }
    out += line + "\n";
  }
  return out;
}

// A name or line from a config file as an error line shows it: at most kShownBytes (a 1 MB
// unknown key was echoed whole), and a NUL as U+2400, since a NUL ends the message's C string.
std::string shown(std::string_view text) {
  constexpr std::size_t kShownBytes = 64;
  std::string out;
  for (std::size_t at = 0; at < text.size();) {
    if (out.size() >= kShownBytes) return out + "…";
    if (text[at] == '\0') {
      out += "\u2400";
      ++at;
      continue;
    }
    // Whole UTF-8 characters only; printable() escapes the rest when the line is printed.
    std::string one;
    const std::size_t n = append_printable(text, at, one);
    out.append(text.substr(at, n));
    at += n;
  }
  return out;
}

// The file's lines checked before Boost reads them, for messages that name the file and line
// (Boost's say "invalid line 'resume'" only). Returns each option name's first line number.
std::map<std::string, std::size_t> check_config_lines(std::string_view text, const std::string& path) {
  std::map<std::string, std::size_t> line_of;
  std::size_t number = 0;
  for (std::size_t at = 0; at <= text.size();) {
    const std::size_t nl = std::min(text.find('\n', at), text.size());
    std::string_view line = text.substr(at, nl - at);
    at = nl + 1;
    ++number;
    if (const std::size_t hash = line.find('#'); hash != std::string_view::npos) line = line.substr(0, hash);
    constexpr std::string_view kBlank = " \t\r";
    const std::size_t first = line.find_first_not_of(kBlank);
    if (first == std::string_view::npos) continue;
    line = line.substr(first, line.find_last_not_of(kBlank) - first + 1);
    if (line.front() == '[' && line.back() == ']') continue;  // a section, as Boost reads them
    const std::size_t eq = line.find('=');
    const std::string where = "config file '" + path + "', line " + std::to_string(number) + ": ";
    if (eq == std::string_view::npos)
      throw UsageError(where + "invalid line '" + shown(line) + "' (a line is 'name = value')");
    std::string_view name = line.substr(0, eq);
    name = name.substr(0, name.find_last_not_of(kBlank) + 1);
    if (name == "config")  // Boost would keep the command line's --config and say nothing
      throw UsageError(where + "'config' cannot be set inside a config file (give one --config on the command line)");
    line_of.try_emplace(std::string(name), number);
  }
  return line_of;
}

// Reads the config file into `parsed` (the command line's values stay: stored first).
void read_config(ParsedCommand& parsed, const po::options_description& options, const OptionBinder& binder) {
  // A preset's name (--config quickstart) is read from the preset directories; the resolved path
  // replaces it, so the option's variable (and the -o guard) see the file read.
  const std::string value = parsed.vm["config"].as<std::string>();
  const std::vector<std::string> dirs = this_process_preset_dirs();
  const auto path = find_preset(value, dirs).value_or(value);
  parsed.vm.at("config").value() = path;
  parsed.config_file = path;
  std::string text = read_config_file(path, path == value ? preset_search_note(value, dirs) : "");
  if (text.starts_with("\xEF\xBB\xBF")) text.erase(0, 3);  // a UTF-8 byte-order mark (Windows editors)
  const auto line_of = check_config_lines(text, path);
  std::istringstream in(canonical_config(text, binder));
  auto from_file = po::parse_config_file(in, options, true);
  std::set<std::string> seen;
  for (const auto& opt : from_file.options) {
    if (!opt.unregistered) continue;
    if (find_option(opt.string_key) == nullptr) {
      const std::string close = closest_option(opt.string_key);
      const auto line = line_of.find(opt.string_key);
      throw UsageError("config file '" + path + "'" +
                       (line == line_of.end() ? std::string() : ", line " + std::to_string(line->second)) +
                       ": unknown option '" + shown(opt.string_key) + "'" +
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
    po::store(
        po::command_line_parser(canonical_arguments(argc, argv, options)).options(all).positional(positional).run(),
        parsed.vm);
    // The file names options only: inputs are given on the command line.
    if (options.has("config") && parsed.vm.count("config") != 0) read_config(parsed, options.all(), options);
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
