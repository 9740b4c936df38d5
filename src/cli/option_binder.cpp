// Option parsing by kind of value (option_binder.hpp).
#include "option_binder.hpp"

#include <algorithm>
#include <boost/make_shared.hpp>
#include <charconv>
#include <cmath>
#include <sstream>
#include <stdexcept>

namespace crd::cli {
namespace {

[[noreturn]] void refuse_value(const OptionSpec& spec, std::string_view text, const std::string& what) {
  throw UsageError("option --" + std::string(spec.name) + ": '" + std::string(text) + "' is not " + what);
}

[[noreturn]] void refuse_range(const OptionSpec& spec, const std::string& value) {
  throw UsageError("option --" + std::string(spec.name) + ": " + value + " is not " +
                   (spec.range.most == std::numeric_limits<std::uint64_t>::max() ? "" : "in ") +
                   spec.range.text(spec.kind));
}

// A fraction in 0..1 written as digits with an optional decimal point ("0.5", "1", ".25");
// nullopt for anything else (signs, exponents, spaces, trailing text).
std::optional<double> parse_fraction(std::string_view text) {
  if (text.empty() || text.find_first_not_of("0123456789.") != std::string_view::npos) return std::nullopt;
  double v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v, std::chars_format::fixed);
  if (ec != std::errc() || end != text.data() + text.size() || v > 1.0) return std::nullopt;
  return v;
}

// Comma-separated items, each parsed by `one`; at most kMaxListValues of them.
template <class T, class Parse>
std::vector<T> parse_list(const OptionSpec& spec, const std::string& text, Parse one, const char* what) {
  std::vector<T> out;
  std::string_view rest = text;
  while (true) {
    const auto comma = rest.find(',');
    const auto item = rest.substr(0, comma);
    const auto v = one(item);
    if (!v) refuse_value(spec, item, what);
    out.push_back(static_cast<T>(*v));
    if (comma == std::string_view::npos) break;
    rest.remove_prefix(comma + 1);
  }
  if (out.size() > kMaxListValues)
    throw UsageError("option --" + std::string(spec.name) + ": at most " + std::to_string(kMaxListValues) + " values");
  return out;
}

std::vector<std::string> split_names(const std::string& s) {
  std::vector<std::string> out;
  std::stringstream in(s);
  std::string item;
  while (std::getline(in, item, ',')) {
    for (auto& c : item) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (!item.empty()) out.push_back(item);
  }
  return out;
}

std::string join_names(const std::vector<std::string>& items) {
  std::string out;
  for (const auto& item : items) out += (out.empty() ? "" : ",") + item;
  return out;
}

// The text --help shows for a default fraction, and /config keeps: two decimals ("0.50").
std::string fraction_text(double v) { return std::to_string(v).substr(0, 4); }

template <class T>
void count_into(T& target, const OptionSpec& spec, std::uint64_t v) {
  if (!spec.range.contains_count(v)) refuse_range(spec, std::to_string(v));
  target = static_cast<T>(v);
}

}  // namespace

const OptionSpec& OptionBinder::expect(std::string_view name, std::initializer_list<ValueKind> kinds) const {
  const OptionSpec& spec = option_spec(name);
  if (std::find(kinds.begin(), kinds.end(), spec.kind) == kinds.end())
    throw std::logic_error("option --" + std::string(name) + " is bound to a field of another kind");
  if (has(name)) throw std::logic_error("option --" + std::string(name) + " is bound twice");
  return spec;
}

template <class Value>
void OptionBinder::bind(const void* target, const OptionSpec& spec, Value* value) {
  if (std::find(required_.begin(), required_.end(), std::string_view(spec.name)) != required_.end()) value->required();
  if (*spec.value_name != '\0') {
    value->value_name(spec.value_name);
  } else if (value->name().rfind("arg", 0) == 0) {  // not named by its range or choices
    value->value_name(spec.kind == ValueKind::Size ? "SIZE" : spec.kind == ValueKind::Number ? "X" : "N");
  }
  const std::string names = spec.short_name == 0 ? spec.name : std::string(spec.name) + "," + spec.short_name;
  bound_.push_back({&spec, boost::make_shared<po::option_description>(names.c_str(), value, spec.help), target});
}

std::string OptionBinder::Bound::default_text() const {
  const std::string name = description->semantic()->name();  // "N (=10)"
  const auto at = name.find(" (=");
  return at == std::string::npos ? "" : name.substr(at + 3, name.size() - at - 4);
}

std::string OptionBinder::Bound::value_name() const {
  if (spec->kind == ValueKind::Flag) return "";
  const std::string name = description->semantic()->name();
  return name.substr(0, name.find(" (="));
}

void OptionBinder::alias(std::string_view old, std::string_view name) {
  if (!has(name))
    throw std::logic_error("alias --" + std::string(old) + " of --" + std::string(name) + ", which is not bound");
  if (has(old)) throw std::logic_error("alias --" + std::string(old) + " is bound as an option of its own");
  aliases_.push_back({option_spec(old).name, option_spec(name).name});
}

std::string_view OptionBinder::canonical(std::string_view name) const {
  for (const Alias& a : aliases_)
    if (a.old == name) return a.name;
  return name;
}

bool OptionBinder::has(std::string_view name) const {
  return std::any_of(bound_.begin(), bound_.end(), [&](const Bound& b) { return name == b.spec->name; });
}

void OptionBinder::add(std::string_view name, bool& target) {
  bind(&target, expect(name, {ValueKind::Flag}), po::bool_switch(&target));
}

void OptionBinder::add(std::string_view name, std::uint64_t& target) {
  const OptionSpec& spec = expect(name, {ValueKind::Count, ValueKind::Size});
  if (spec.kind == ValueKind::Size) {
    auto* v = po::value<ByteSize>()->default_value(ByteSize::of(target))->notifier([&target, &spec](const ByteSize& b) {
      if (!spec.range.contains_count(b.value)) refuse_range(spec, b.text);
      target = b.value;
    });
    return bind(&target, spec, v);
  }
  auto* v = po::value<Count>()->default_value(Count{target})->notifier([&target, &spec](const Count& c) {
    count_into(target, spec, c.value);
  });
  if (spec.range.bounded()) v->value_name(spec.range.text(spec.kind));
  bind(&target, spec, v);
}

void OptionBinder::add(std::string_view name, std::uint32_t& target) {
  const OptionSpec& spec = expect(name, {ValueKind::Count});
  if (spec.range.most > std::numeric_limits<std::uint32_t>::max())
    throw std::logic_error("option --" + std::string(name) + ": its range does not fit 32 bits");
  auto* v = po::value<Count>()->default_value(Count{target})->notifier([&target, &spec](const Count& c) {
    count_into(target, spec, c.value);
  });
  v->value_name(spec.range.text(spec.kind));
  bind(&target, spec, v);
}

void OptionBinder::add(std::string_view name, int& target) {
  const OptionSpec& spec = expect(name, {ValueKind::Integer});
  auto* v = po::value<int>()->default_value(target)->notifier([&target, &spec](int i) {
    if (!spec.range.contains(i)) refuse_range(spec, std::to_string(i));
    target = i;
  });
  if (spec.range.least != std::numeric_limits<std::int64_t>::min()) v->value_name(spec.range.text(spec.kind));
  bind(&target, spec, v);
}

void OptionBinder::add(std::string_view name, double& target) {
  const OptionSpec& spec = expect(name, {ValueKind::Number, ValueKind::Fraction});
  if (spec.kind == ValueKind::Fraction) {
    return bind(&target, spec,
                po::value<std::string>()
                    ->value_name("0..1")
                    ->default_value(fraction_text(target))
                    ->notifier([&target, &spec](const std::string& s) {
                      const auto v = parse_fraction(s);
                      if (!v) refuse_value(spec, s, "a fraction in 0..1");
                      target = *v;
                    }));
  }
  std::ostringstream shown;
  shown << target;
  bind(&target, spec, po::value<double>()->default_value(target, shown.str())->notifier([&target, &spec](double v) {
    if (!std::isfinite(v) || v < static_cast<double>(spec.range.least))
      throw UsageError("option --" + std::string(spec.name) + ": must be a finite number " +
                       spec.range.text(spec.kind));
    target = v;
  }));
}

void OptionBinder::add(std::string_view name, std::string& target) {
  const OptionSpec& spec = expect(name, {ValueKind::Text, ValueKind::Path});
  auto* v = po::value<std::string>(&target);
  if (!target.empty()) v->default_value(target);
  if (spec.kind == ValueKind::Path) reads_.push_back({spec.effect, &target, nullptr});
  bind(&target, spec, v);
}

void OptionBinder::add(std::string_view name, std::vector<std::string>& target) {
  const OptionSpec& spec = expect(name, {ValueKind::PathList, ValueKind::NameList});
  if (spec.kind == ValueKind::PathList) {
    reads_.push_back({spec.effect, nullptr, &target});
    return bind(&target, spec, po::value<std::vector<std::string>>(&target));
  }
  bind(&target, spec,
       po::value<std::string>()->default_value(join_names(target))->notifier([&target, &spec](const std::string& v) {
         auto names = split_names(v);
         if (names.empty()) throw UsageError("option --" + std::string(spec.name) + ": needs at least one name");
         target = std::move(names);
       }));
}

void OptionBinder::add(std::string_view name, std::vector<std::uint32_t>& target) {
  const OptionSpec& spec = expect(name, {ValueKind::CountList});
  bind(&target, spec, po::value<std::string>()->notifier([&target, &spec](const std::string& s) {
    const auto values = parse_list<std::uint64_t>(spec, s, parse_count, "a whole number");
    target.clear();
    for (const std::uint64_t v : values) count_into(target.emplace_back(), spec, v);
  }));
}

void OptionBinder::add(std::string_view name, std::vector<double>& target) {
  const OptionSpec& spec = expect(name, {ValueKind::FractionList});
  bind(&target, spec, po::value<std::string>()->notifier([&target, &spec](const std::string& s) {
    target = parse_list<double>(spec, s, parse_fraction, "a fraction in 0..1");
  }));
}

void OptionBinder::add(std::string_view name, detect::Threshold& target) {
  const OptionSpec& spec = expect(name, {ValueKind::Threshold});
  bind(&target, spec,
       po::value<std::string>()
           ->value_name(*spec.value_name != '\0' ? spec.value_name : "auto|robust[:K]|X")
           ->default_value(target.to_string())
           ->notifier([&target, &spec](const std::string& v) { target = detect::Threshold::parse(v, spec.name); }));
}

po::options_description OptionBinder::help(const std::string& caption) const {
  po::options_description out(caption);
  for (const char* group : option_groups()) {
    po::options_description section(group);
    for (const Bound& b : bound_)
      if (std::string_view(b.spec->group) == group) section.add(b.description);
    if (!section.options().empty()) out.add(section);
  }
  return out;
}

po::options_description OptionBinder::all() const {
  po::options_description out;
  for (const Bound& b : bound_) out.add(b.description);
  return out;
}

std::vector<std::string> OptionBinder::read_paths(std::optional<Effect> effect) const {
  std::vector<std::string> out;
  for (const ReadPaths& r : reads_) {
    if (effect && r.effect != *effect) continue;
    if (r.one != nullptr && !r.one->empty()) out.push_back(*r.one);
    if (r.several != nullptr)
      for (const std::string& p : *r.several)
        if (!p.empty()) out.push_back(p);
  }
  return out;
}

}  // namespace crd::cli
