// The chunker of a result, read back from its stored options.
#include "crd/output/chunker_used.hpp"

#include <map>
#include <sstream>

#include "crd/output/schema.hpp"

namespace crd::output {

std::string chunker_of_config(const std::string& config_ini) {
  std::map<std::string, std::string, std::less<>> values;
  std::istringstream lines(config_ini);
  for (std::string line; std::getline(lines, line);) {
    const auto eq = line.find(" = ");
    if (!line.empty() && line[0] != '#' && eq != std::string::npos) values[line.substr(0, eq)] = line.substr(eq + 3);
  }
  const auto chunker = values.find("chunker");
  if (chunker == values.end()) return {};
  const auto value = [&](const char* name) {
    const auto it = values.find(name);
    return it == values.end() ? std::string("?") : it->second;
  };
  if (chunker->second == "winnow")
    return "winnow (gram-words " + value("gram-words") + ", window " + value("window") + ")";
  return chunker->second + " (tags " + value("tags") + ")";
}

std::string chunker_used(const ResultReader& r) {
  if (schema::has_attribute(r, schema::attr::kConfig)) {
    std::string used = chunker_of_config(schema::attribute_string(r, schema::attr::kConfig));
    if (!used.empty()) return used;
  }
  if (schema::has_attribute(r, schema::attr::kChunking)) return schema::attribute_string(r, schema::attr::kChunking);
  return "unknown";
}

}  // namespace crd::output
