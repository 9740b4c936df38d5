// PageList: a sorted vector searched by bisection; a list is a reviewer's marks, thousands of
// lines at most, so one copy per rank costs nothing worth sharing.
#include "page_list.hpp"

#include <sys/stat.h>

#include <algorithm>

#include "crd/base/capped_text_file.hpp"
#include "crd/base/error.hpp"
#include "crd/url/url_key.hpp"

namespace crd::pipeline {

PageList PageList::load(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) throw UsageError("cannot read page list '" + path + "'");
  if (!S_ISREG(st.st_mode)) throw UsageError("page list '" + path + "' is not a regular file");
  // Capped like an @LIST: every rank holds the list (a 10^7-line one cost 1 GB on each).
  const std::string text = read_capped_text_file(path, "page list");
  PageList list;
  for (std::size_t at = 0; at < text.size();) {
    const std::size_t nl = std::min(text.find('\n', at), text.size());
    std::string_view line(text.data() + at, nl - at);
    at = nl + 1;
    constexpr std::string_view kBlank = " \t\r\f\v";
    const std::size_t first = line.find_first_not_of(kBlank);
    if (first == std::string_view::npos || line[first] == '#') continue;
    line = line.substr(first, line.find_last_not_of(kBlank) - first + 1);
    const auto entry = static_cast<std::uint32_t>(list.entries_++);
    if (line.find("://") != std::string_view::npos) {
      // A URL: keyed as crd keys the pages' URLs (a URL with no host names no page).
      if (const auto key = url::url_key(line)) list.keys_.push_back({*key, entry});
      continue;
    }
    list.keys_.push_back({std::string(line), entry});
    std::string lower(line);  // the host part in lower case, as URL keys have it
    for (std::size_t i = 0; i < lower.size() && lower[i] != '/'; ++i)
      if (lower[i] >= 'A' && lower[i] <= 'Z') lower[i] = static_cast<char>(lower[i] - 'A' + 'a');
    if (lower != line) list.keys_.push_back({std::move(lower), entry});
  }
  std::sort(list.keys_.begin(), list.keys_.end(),
            [](const Key& a, const Key& b) { return a.key != b.key ? a.key < b.key : a.entry < b.entry; });
  list.keys_.shrink_to_fit();
  return list;
}

bool PageList::contains(std::string_view key, std::vector<std::uint32_t>* matched) const {
  auto it = std::lower_bound(keys_.begin(), keys_.end(), key,
                             [](const Key& k, std::string_view v) { return std::string_view(k.key) < v; });
  bool found = false;
  for (; it != keys_.end() && it->key == key; ++it) {
    found = true;
    if (matched != nullptr) matched->push_back(it->entry);
  }
  return found;
}

std::uint64_t PageList::held_bytes() const {
  std::uint64_t bytes = keys_.capacity() * sizeof(Key);
  for (const Key& k : keys_) bytes += k.key.capacity() > 15 ? k.key.capacity() + 1 : 0;  // past the SSO buffer
  return bytes;
}

}  // namespace crd::pipeline
