// load_label_lookup: the hash column of each labeled group, first occurrence wins.
#include "crd/pipeline/label_lookup.hpp"

#include <algorithm>

#include "crd/discover/discovery.hpp"
#include "crd/output/result_reader.hpp"
#include "crd/output/table_io.hpp"
#include "label_set.hpp"

namespace crd::pipeline {

discover::LabelLookup load_label_lookup(const std::vector<std::string>& paths, const std::string& chunking) {
  discover::LabelLookup out;
  for (const auto& path : paths) {
    output::ResultReader reader(path);
    const std::string group = labels_group(reader);
    check_labels_chunking(reader, group, chunking);
    const auto hashes =
        reader.read_matrix(output::Table<discover::LabelRow>{group.c_str()}.column(&discover::LabelRow::hash));
    for (std::size_t i = 0; i * 20 < hashes.size(); ++i) {
      Digest d;
      std::copy_n(hashes.begin() + static_cast<std::ptrdiff_t>(i * 20), 20, d.bytes.begin());
      bool inserted = false;
      std::uint32_t& slot = out.index.find_or_insert(d, inserted);
      if (inserted) {
        slot = static_cast<std::uint32_t>(out.sources.size());
        out.sources.push_back({path, group, i});
      }
    }
  }
  return out;
}

}  // namespace crd::pipeline
