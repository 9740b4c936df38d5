// Binds registry options (option_registry.hpp) to the fields they fill, for one command: the
// parser of each option follows from its kind, its accepted values from its range, and its
// default is the field's value when bound (the struct's member initializer). One overload per
// type of field; binding a name whose kind does not fit the field is a program bug (logic_error).
#pragma once

#include <boost/program_options.hpp>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "crd/base/enum_names.hpp"
#include "crd/base/error.hpp"
#include "crd/detect/threshold.hpp"
#include "option_registry.hpp"
#include "option_values.hpp"

namespace crd::cli {

namespace po = boost::program_options;

class OptionBinder {
 public:
  // `required`: names the command cannot do without (boost reports them missing).
  explicit OptionBinder(std::vector<std::string_view> required = {}) : required_(std::move(required)) {}

  void add(std::string_view name, bool& target);                        // Flag
  void add(std::string_view name, std::uint64_t& target);               // Count, Size
  void add(std::string_view name, std::uint32_t& target);               // Count (range within 32 bits)
  void add(std::string_view name, int& target);                         // Integer
  void add(std::string_view name, double& target);                      // Number, Fraction
  void add(std::string_view name, std::string& target);                 // Text, Path
  void add(std::string_view name, std::vector<std::string>& target);    // PathList, NameList
  void add(std::string_view name, std::vector<std::uint32_t>& target);  // CountList
  void add(std::string_view name, std::vector<double>& target);         // FractionList
  void add(std::string_view name, detect::Threshold& target);           // Threshold
  template <class E>
  requires std::is_enum_v<E>
  void add(std::string_view name, E& target) {  // Choice
    const OptionSpec& spec = expect(name, {ValueKind::Choice});
    const std::string option = spec.name;
    bind(&target, spec,
         po::value<std::string>()
             ->value_name(enum_choices_short<E>())
             ->default_value(name_of(target))
             ->notifier([&target, option](const std::string& v) {
               const std::optional<E> value = parse_enum<E>(v);
               if (!value)
                 throw UsageError("option --" + option + ": expected " + enum_choices<E>() + ", got '" + v + "'");
               target = *value;
             }));
  }

  // An older spelling of the bound option `name`, still accepted on the command line and in config
  // files (its help says so): where one name meant different things in different commands, the
  // command whose meaning moved to a name of its own keeps the old one this way.
  void alias(std::string_view old, std::string_view name);
  // The bound option `name` stands for: itself, or what it is an older spelling of.
  std::string_view canonical(std::string_view name) const;

  struct Bound {
    const OptionSpec* spec;
    boost::shared_ptr<po::option_description> description;
    const void* target;                // the field it fills: one field per option, whichever command binds it
    std::string default_text() const;  // as --help shows it; "" = none
    std::string value_name() const;    // as --help shows it ("scan|dom|…" for a choice); "" = a flag
  };
  // In binding order (the order of the effective configuration).
  const std::vector<Bound>& bound() const { return bound_; }
  bool has(std::string_view name) const;
  // --help's text: the options under their registry groups, in registry group order.
  po::options_description help(const std::string& caption) const;
  // Every option bound, for parsing.
  po::options_description all() const;
  // The files the bound Path and PathList options name now (after parsing): what the job reads;
  // only those of options with that effect when `effect` is given.
  std::vector<std::string> read_paths(std::optional<Effect> effect) const;

 private:
  const OptionSpec& expect(std::string_view name, std::initializer_list<ValueKind> kinds) const;
  template <class Value>
  void bind(const void* target, const OptionSpec& spec, Value* value);
  template <class E>
  static std::string enum_choices_short() {
    std::string out;
    for (const auto& e : enum_names(E{})) out += (out.empty() ? "" : "|") + std::string(e.name);
    return out;
  }

  struct Alias {
    std::string_view old, name;
  };
  std::vector<std::string_view> required_;
  std::vector<Bound> bound_;
  std::vector<Alias> aliases_;
  struct ReadPaths {
    Effect effect;
    const std::string* one;                   // Path
    const std::vector<std::string>* several;  // PathList
  };
  std::vector<ReadPaths> reads_;
};

}  // namespace crd::cli
