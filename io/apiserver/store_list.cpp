// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
// The list half of the store: selectors, resourceVersion semantics and
// paginated snapshots for `continue` tokens.
#include "io/apiserver/store.hpp"
#include "io/apiserver/store_state.hpp"
#include "support/base64.hpp"

#include <algorithm>
#include <charconv>

namespace tessera::apiserver {

std::optional<std::uint64_t> parse_resource_version(std::string_view s) {
  std::uint64_t n = 0;
  auto [p, e] = std::from_chars(s.data(), s.data() + s.size(), n);
  if (e != std::errc{} || p != s.data() + s.size() || s.empty())
    return std::nullopt;
  return n;
}

api_result<selection>
parse_selection(const resource_info& res, std::string_view label_selector,
                std::string_view field_selector,
                const std::optional<std::string>& resource_version) {
  auto labels = selector::parse_labels(label_selector);
  if (!labels)
    return labels.err();
  auto fields = selector::parse_fields(field_selector, res);
  if (!fields)
    return fields.err();
  std::optional<std::uint64_t> rv;
  const std::string rv_text = resource_version.value_or("");
  if (!rv_text.empty()) {
    rv = parse_resource_version(rv_text);
    if (!rv)
      return status::bad_request("invalid resource version \"" + rv_text
                                 + "\"");
  }
  return selection{std::move(*labels), std::move(*fields), rv};
}

namespace {

constexpr std::string_view continue_too_old
  = "The provided continue parameter is too old to display a consistent list "
    "result. You can start a new list without the continue parameter, or use "
    "the continue token in this response to retrieve the remainder of the "
    "results. Continuing with the provided token results in an inconsistent "
    "list - objects that were created, modified, or deleted between the time "
    "the first chunk was returned and now may show up in the list.";

api_status list_options_invalid(std::vector<status_cause> causes) {
  return status::invalid("ListOptions", "meta.k8s.io", "", std::move(causes));
}

} // namespace

api_result<list_result> store::list(const resource_info& res,
                                    std::string_view ns,
                                    const list_options& opts) const {
  std::vector<status_cause> causes;
  const std::string rv_text = opts.resource_version.value_or("");
  if (!opts.resource_version_match.empty()) {
    const auto& m = opts.resource_version_match;
    if (rv_text.empty())
      causes.push_back(status::forbidden_field(
        "resourceVersionMatch",
        "resourceVersionMatch is forbidden unless resourceVersion is "
        "provided"));
    if (!opts.continue_token.empty())
      causes.push_back(status::forbidden_field(
        "resourceVersionMatch",
        "resourceVersionMatch is forbidden when continue is provided"));
    if (m != "Exact" && m != "NotOlderThan")
      causes.push_back(status::unsupported_value(
        "resourceVersionMatch", m, R"("Exact", "NotOlderThan", "")"));
    if (m == "Exact" && rv_text == "0")
      causes.push_back(status::forbidden_field(
        "resourceVersionMatch",
        "resourceVersionMatch \"exact\" is forbidden for resourceVersion "
        "\"0\""));
  }
  if (opts.send_initial_events)
    causes.push_back(status::forbidden_field(
      "sendInitialEvents", "sendInitialEvents is forbidden for list"));
  if (!causes.empty())
    return list_options_invalid(std::move(causes));
  if (opts.limit < 0)
    return status::bad_request("limit must be non-negative");
  auto picked = parse_selection(res, opts.label_selector, opts.field_selector,
                                opts.resource_version);
  if (!picked)
    return picked.err();
  const selector& labels = picked->labels;
  const selector& fields = picked->fields;
  const std::optional<std::uint64_t>& rv = picked->rv;
  auto& st = *state_;
  list_result out;
  auto keep = [&](const stored_object& o) {
    if (res.namespaced && !ns.empty() && o.ns() != ns)
      return false;
    return labels.matches(o.attrs()) && fields.matches(o.attrs());
  };

  std::lock_guard lock{st.mu};
  // Continue: page through a kept snapshot.
  if (!opts.continue_token.empty()) {
    auto raw = base64url_decode(opts.continue_token);
    std::uint64_t id = 0, offset = 0;
    bool ok = false;
    if (raw) {
      auto colon = raw->find(':');
      if (colon != std::string::npos) {
        auto a
          = parse_resource_version(std::string_view{*raw}.substr(0, colon));
        auto b
          = parse_resource_version(std::string_view{*raw}.substr(colon + 1));
        if (a && b) {
          id = *a;
          offset = *b;
          ok = true;
        }
      }
    }
    if (!ok)
      return status::bad_request("continue key is not valid: incorrect "
                                 "encoded start resourceVersion (version "
                                 "meta.k8s.io/v1)");
    auto snap
      = std::find_if(st.snapshots.begin(), st.snapshots.end(),
                     [&](const list_snapshot& s) { return s.id == id; });
    if (snap == st.snapshots.end())
      return status::expired(std::string{continue_too_old});
    if (offset > snap->items.size())
      return status::bad_request("continue key is not valid: offset out of "
                                 "range");
    out.resource_version = snap->rv;
    std::size_t n = snap->items.size() - offset;
    if (opts.limit > 0 && static_cast<std::size_t>(opts.limit) < n)
      n = static_cast<std::size_t>(opts.limit);
    out.items.assign(snap->items.begin() + static_cast<std::ptrdiff_t>(offset),
                     snap->items.begin()
                       + static_cast<std::ptrdiff_t>(offset + n));
    std::size_t next = offset + n;
    if (next < snap->items.size()) {
      out.continue_token
        = base64url_encode(std::to_string(id) + ":" + std::to_string(next));
      out.remaining_item_count
        = static_cast<std::int64_t>(snap->items.size() - next);
    } else {
      st.snapshots.erase(snap);
    }
    for (auto& o : out.items)
      o = present(res, o);
    return out;
  }

  std::vector<object_ptr> all;
  auto& map = st.objects[static_cast<std::size_t>(res.storage)];
  if (rv && opts.resource_version_match == "Exact") {
    if (*rv < st.compacted)
      return status::expired("The resourceVersion for the provided list is "
                             "too old.");
    if (*rv > st.rv)
      return status::too_large_resource_version(*rv, st.rv);
    // Rebuild the state at rv by undoing newer history.
    std::map<std::string, object_ptr, std::less<>> at;
    for (const auto& [k, c] : map)
      at.emplace(k, c.obj);
    for (auto it = st.history.rbegin(); it != st.history.rend() && it->rv > *rv;
         ++it) {
      if (it->storage != res.storage)
        continue;
      auto key = it->obj->key();
      if (it->type == event_type::added)
        at.erase(key);
      else
        at.insert_or_assign(key, it->prev);
    }
    for (const auto& [k, o] : at)
      if (keep(*o))
        all.push_back(o);
    out.resource_version = *rv;
  } else {
    if (rv && *rv > st.rv)
      return status::too_large_resource_version(*rv, st.rv);
    if (res.namespaced && !ns.empty()) {
      std::string lo = std::string{ns} + '/';
      std::string hi = std::string{ns} + '0';
      for (auto it = map.lower_bound(lo); it != map.end() && it->first < hi;
           ++it)
        if (keep(*it->second.obj))
          all.push_back(it->second.obj);
    } else {
      for (const auto& [k, c] : map)
        if (keep(*c.obj))
          all.push_back(c.obj);
    }
    out.resource_version = st.rv;
  }
  // resourceVersion=0 is served like the watch cache: limit ignored.
  bool paged = opts.limit > 0 && rv_text != "0"
               && all.size() > static_cast<std::size_t>(opts.limit);
  if (paged) {
    list_snapshot snap;
    snap.id = st.next_snapshot_id++;
    snap.rv = out.resource_version;
    auto n = static_cast<std::size_t>(opts.limit);
    out.items.assign(all.begin(), all.begin() + static_cast<std::ptrdiff_t>(n));
    out.continue_token
      = base64url_encode(std::to_string(snap.id) + ":" + std::to_string(n));
    out.remaining_item_count = static_cast<std::int64_t>(all.size() - n);
    snap.items = std::move(all);
    st.snapshots.push_back(std::move(snap));
    while (st.snapshots.size()
           > std::max<std::size_t>(1, st.cfg.list_snapshots))
      st.snapshots.pop_front();
  } else {
    out.items = std::move(all);
  }
  if (res.view != resource_view::stored)
    for (auto& o : out.items)
      o = present(res, o);
  return out;
}

} // namespace tessera::apiserver
