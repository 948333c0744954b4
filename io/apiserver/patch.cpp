// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "io/apiserver/patch.hpp"

#include "model/json_access.hpp"

#include <boost/json.hpp>

#include <algorithm>
#include <charconv>
#include <vector>

namespace tessera::apiserver {

namespace json = boost::json;

std::optional<patch_type> patch_type_from_content_type(std::string_view ct) {
  auto semi = ct.find(';');
  if (semi != std::string_view::npos)
    ct = ct.substr(0, semi);
  while (!ct.empty() && ct.back() == ' ')
    ct.remove_suffix(1);
  if (ct == "application/json-patch+json")
    return patch_type::json_patch;
  if (ct == "application/merge-patch+json")
    return patch_type::merge;
  if (ct == "application/strategic-merge-patch+json")
    return patch_type::strategic;
  if (ct == "application/apply-patch+yaml"
      || ct == "application/apply-patch+cbor")
    return patch_type::apply;
  return std::nullopt;
}

namespace {

// ---- JSON merge patch (RFC 7386) ----------------------------------------

void merge_patch(json::value& target, const json::value& patch) {
  if (!patch.is_object()) {
    target = patch;
    return;
  }
  if (!target.is_object())
    target = json::object{};
  auto& t = target.as_object();
  for (const auto& kv : patch.as_object()) {
    if (kv.value().is_null()) {
      t.erase(kv.key());
      continue;
    }
    auto& slot = t[kv.key()];
    merge_patch(slot, kv.value());
  }
}

// ---- strategic merge patch ----------------------------------------------

/// How a list at a path merges: by an object key, as a set of primitives,
/// or (nullopt) replaced whole.
struct list_strategy {
  std::string_view merge_key; // empty = primitive set
};

std::optional<list_strategy> strategy_for(storage_kind storage,
                                          std::string_view path) {
  if (path == "metadata.ownerReferences")
    return list_strategy{"uid"};
  if (path == "metadata.finalizers")
    return list_strategy{""};
  if (path == "status.conditions")
    return list_strategy{"type"};
  if (storage == storage_kind::pod) {
    for (std::string_view c : {"spec.containers", "spec.initContainers",
                               "spec.ephemeralContainers"}) {
      if (path == c)
        return list_strategy{"name"};
      if (path.size() > c.size() && path.substr(0, c.size()) == c
          && path[c.size()] == '.') {
        auto rest = path.substr(c.size() + 1);
        if (rest == "ports")
          return list_strategy{"containerPort"};
        if (rest == "env")
          return list_strategy{"name"};
        if (rest == "volumeMounts")
          return list_strategy{"mountPath"};
        if (rest == "volumeDevices")
          return list_strategy{"devicePath"};
      }
    }
    if (path == "spec.volumes" || path == "spec.imagePullSecrets"
        || path == "spec.schedulingGates"
        || path == "status.resourceClaimStatuses")
      return list_strategy{"name"};
    if (path == "spec.hostAliases" || path == "status.podIPs"
        || path == "status.hostIPs")
      return list_strategy{"ip"};
  }
  if (storage == storage_kind::node) {
    if (path == "status.addresses")
      return list_strategy{"type"};
    if (path == "status.volumesAttached")
      return list_strategy{"name"};
    if (path == "spec.podCIDRs")
      return list_strategy{""};
  }
  return std::nullopt;
}

bool starts_with(std::string_view s, std::string_view p) {
  return s.size() >= p.size() && s.substr(0, p.size()) == p;
}

/// A copy of `v` without `$`-directives (for values inserted as new).
json::value strip_directives(const json::value& v) {
  if (auto* o = v.if_object()) {
    json::object out;
    for (const auto& kv : *o) {
      if (!kv.key().empty() && kv.key().front() == '$')
        continue;
      out.emplace(kv.key(), strip_directives(kv.value()));
    }
    return out;
  }
  if (auto* a = v.if_array()) {
    json::array out;
    for (const auto& e : *a) {
      if (auto* eo = e.if_object()) {
        auto* p = eo->if_contains("$patch");
        if (p && p->is_string())
          continue;
      }
      out.push_back(strip_directives(e));
    }
    return out;
  }
  return v;
}

std::string_view directive(const json::object& o) {
  return model::string_at(o, "$patch");
}

class strategic_merger {
public:
  explicit strategic_merger(storage_kind storage) : storage_(storage) {
  }
  std::optional<std::string> error;

  void merge_map(json::object& target, const json::object& patch,
                 const std::string& path) {
    auto d = directive(patch);
    if (d == "replace") {
      target = strip_directives(patch).as_object();
      return;
    }
    if (!d.empty() && d != "merge" && d != "delete") {
      error = "unknown patch directive \"" + std::string{d} + "\"";
      return;
    }
    for (const auto& kv : patch) {
      std::string_view key = kv.key();
      if (key == "$patch" || key == "$retainKeys"
          || starts_with(key, "$setElementOrder/"))
        continue;
      if (starts_with(key, "$deleteFromPrimitiveList/")) {
        auto list
          = key.substr(std::string_view{"$deleteFromPrimitiveList/"}.size());
        auto* tv = target.if_contains(list);
        auto* pa = kv.value().if_array();
        if (tv && tv->is_array() && pa) {
          auto& ta = tv->as_array();
          for (std::size_t i = 0; i < ta.size();) {
            if (std::find(pa->begin(), pa->end(), ta[i]) != pa->end())
              ta.erase(ta.begin() + static_cast<std::ptrdiff_t>(i));
            else
              ++i;
          }
        }
        continue;
      }
      std::string child
        = path.empty() ? std::string{key} : path + "." + std::string{key};
      const json::value& pv = kv.value();
      if (pv.is_null()) {
        target.erase(key);
        continue;
      }
      if (auto* po = pv.if_object()) {
        if (directive(*po) == "delete") {
          target.erase(key);
          continue;
        }
        auto& slot = target[key];
        if (!slot.is_object())
          slot = json::object{};
        merge_map(slot.as_object(), *po, child);
        continue;
      }
      if (auto* pa = pv.if_array()) {
        auto strategy = strategy_for(storage_, child);
        auto* tv = target.if_contains(key);
        if (strategy && tv && tv->is_array()) {
          merge_list(tv->as_array(), *pa, *strategy, child);
        } else {
          target[key] = strip_directives(pv);
        }
        continue;
      }
      target[key] = pv;
    }
    if (auto* rk = patch.if_contains("$retainKeys")) {
      if (auto* keys = rk->if_array()) {
        std::vector<std::string> drop;
        for (const auto& kv : target) {
          bool keep = false;
          for (const auto& k : *keys)
            if (k.is_string() && k.as_string() == kv.key())
              keep = true;
          if (!keep)
            drop.emplace_back(kv.key());
        }
        for (const auto& k : drop)
          target.erase(k);
      }
    }
  }

  void merge_list(json::array& target, const json::array& patch,
                  const list_strategy& strategy, const std::string& path) {
    for (const auto& e : patch)
      if (auto* eo = e.if_object(); eo && directive(*eo) == "replace") {
        target = strip_directives(patch).as_array();
        return;
      }
    if (strategy.merge_key.empty()) {
      for (const auto& e : patch)
        if (std::find(target.begin(), target.end(), e) == target.end())
          target.push_back(e);
      return;
    }
    for (const auto& e : patch) {
      auto* eo = e.if_object();
      if (!eo) {
        error = "expected an object in list " + path;
        return;
      }
      auto* key = eo->if_contains(strategy.merge_key);
      if (!key) {
        error = "map: " + json::serialize(e) + " does not contain declared "
                + "merge key: " + std::string{strategy.merge_key};
        return;
      }
      auto it
        = std::find_if(target.begin(), target.end(), [&](const json::value& t) {
            auto* to = t.if_object();
            if (!to)
              return false;
            auto* tk = to->if_contains(strategy.merge_key);
            return tk && *tk == *key;
          });
      if (directive(*eo) == "delete") {
        if (it != target.end())
          target.erase(it);
        continue;
      }
      if (it == target.end()) {
        target.push_back(strip_directives(e));
      } else {
        if (!it->is_object())
          *it = json::object{};
        merge_map(it->as_object(), *eo, path);
      }
      if (error)
        return;
    }
  }

private:
  storage_kind storage_;
};

// ---- JSON patch (RFC 6902) -----------------------------------------------

/// Splits a JSON pointer into unescaped tokens; nullopt when malformed.
std::optional<std::vector<std::string>> split_pointer(std::string_view p) {
  std::vector<std::string> out;
  if (p.empty())
    return out;
  if (p.front() != '/')
    return std::nullopt;
  std::size_t i = 1;
  out.emplace_back();
  for (; i < p.size(); ++i) {
    char c = p[i];
    if (c == '/') {
      out.emplace_back();
    } else if (c == '~') {
      if (i + 1 >= p.size())
        return std::nullopt;
      char n = p[++i];
      if (n == '0')
        out.back() += '~';
      else if (n == '1')
        out.back() += '/';
      else
        return std::nullopt;
    } else {
      out.back() += c;
    }
  }
  return out;
}

std::optional<std::size_t> array_index(const std::string& tok, std::size_t size,
                                       bool allow_end) {
  if (allow_end && tok == "-")
    return size;
  std::size_t n = 0;
  auto [p, e] = std::from_chars(tok.data(), tok.data() + tok.size(), n);
  if (e != std::errc{} || p != tok.data() + tok.size() || tok.empty()
      || (tok.size() > 1 && tok[0] == '0'))
    return std::nullopt;
  if (n > size || (!allow_end && n == size))
    return std::nullopt;
  return n;
}

/// The parent container of the pointer's last token.
json::value* walk_parent(json::value& root,
                         const std::vector<std::string>& toks) {
  json::value* cur = &root;
  for (std::size_t i = 0; i + 1 < toks.size(); ++i) {
    if (auto* o = cur->if_object()) {
      cur = o->if_contains(toks[i]);
    } else if (auto* a = cur->if_array()) {
      auto idx = array_index(toks[i], a->size(), false);
      cur = idx ? &(*a)[*idx] : nullptr;
    } else {
      cur = nullptr;
    }
    if (!cur)
      return nullptr;
  }
  return cur;
}

json::value* find_pointer(json::value& root,
                          const std::vector<std::string>& toks) {
  if (toks.empty())
    return &root;
  auto* parent = walk_parent(root, toks);
  if (!parent)
    return nullptr;
  if (auto* o = parent->if_object())
    return o->if_contains(toks.back());
  if (auto* a = parent->if_array()) {
    auto idx = array_index(toks.back(), a->size(), false);
    return idx ? &(*a)[*idx] : nullptr;
  }
  return nullptr;
}

std::optional<std::string> pointer_add(json::value& root,
                                       const std::vector<std::string>& toks,
                                       json::value v) {
  if (toks.empty()) {
    root = std::move(v);
    return std::nullopt;
  }
  auto* parent = walk_parent(root, toks);
  if (!parent)
    return std::string{"missing path"};
  if (auto* o = parent->if_object()) {
    (*o)[toks.back()] = std::move(v);
    return std::nullopt;
  }
  if (auto* a = parent->if_array()) {
    auto idx = array_index(toks.back(), a->size(), true);
    if (!idx)
      return std::string{"index out of range"};
    a->insert(a->begin() + static_cast<std::ptrdiff_t>(*idx), std::move(v));
    return std::nullopt;
  }
  return std::string{"parent is not a container"};
}

std::optional<std::string> pointer_remove(json::value& root,
                                          const std::vector<std::string>& toks,
                                          json::value* removed) {
  if (toks.empty())
    return std::string{"cannot remove the root"};
  auto* parent = walk_parent(root, toks);
  if (!parent)
    return std::string{"missing path"};
  if (auto* o = parent->if_object()) {
    auto it = o->find(toks.back());
    if (it == o->end())
      return std::string{"missing path"};
    if (removed)
      *removed = std::move(it->value());
    o->erase(it);
    return std::nullopt;
  }
  if (auto* a = parent->if_array()) {
    auto idx = array_index(toks.back(), a->size(), false);
    if (!idx)
      return std::string{"index out of range"};
    if (removed)
      *removed = std::move((*a)[*idx]);
    a->erase(a->begin() + static_cast<std::ptrdiff_t>(*idx));
    return std::nullopt;
  }
  return std::string{"parent is not a container"};
}

/// The length of `v` as compact JSON, counted only up to `budget`: past
/// it, some number above `budget`.
std::size_t json_length_up_to(const json::value& v, std::size_t budget) {
  json::serializer sr;
  sr.reset(&v);
  char buf[4096];
  std::size_t n = 0;
  while (!sr.done() && n <= budget)
    n += sr.read(buf, sizeof buf).size();
  return n;
}

std::optional<std::string> json_patch(json::value& target,
                                      const json::value& patch) {
  auto* ops = patch.if_array();
  if (!ops)
    return std::string{"a JSON patch must be an array of operations"};
  // Copies are the one operation that grows the document beyond what the
  // request carries: a copy of the root into itself doubles it, and twenty
  // of them make a megabyte a terabyte. kube-apiserver bounds what copies
  // add up to (JSONPatchMaxCopyBytes), with this message.
  std::size_t copied = 0;
  for (const auto& opv : *ops) {
    auto* op = opv.if_object();
    if (!op)
      return std::string{"a JSON patch operation must be an object"};
    auto str = [&](std::string_view k) -> std::optional<std::string> {
      if (auto* v = op->if_contains(k))
        if (auto* s = v->if_string())
          return std::string{s->data(), s->size()};
      return std::nullopt;
    };
    auto name = str("op");
    auto path = str("path");
    if (!name || !path)
      return std::string{"a JSON patch operation needs op and path"};
    auto toks = split_pointer(*path);
    if (!toks)
      return "invalid JSON pointer \"" + *path + "\"";
    std::optional<std::string> err;
    if (*name == "add" || *name == "replace" || *name == "test") {
      auto* value = op->if_contains("value");
      if (!value)
        return "missing value for operation " + *name;
      if (*name == "add") {
        err = pointer_add(target, *toks, *value);
      } else if (*name == "replace") {
        auto* cur = find_pointer(target, *toks);
        if (!cur)
          err = std::string{"missing path"};
        else
          *cur = *value;
      } else {
        auto* cur = find_pointer(target, *toks);
        if (!cur || *cur != *value)
          err = std::string{"test failed"};
      }
    } else if (*name == "remove") {
      err = pointer_remove(target, *toks, nullptr);
    } else if (*name == "move" || *name == "copy") {
      auto from = str("from");
      if (!from)
        return "missing from for operation " + *name;
      auto ftoks = split_pointer(*from);
      if (!ftoks)
        return "invalid JSON pointer \"" + *from + "\"";
      json::value v;
      if (*name == "move") {
        err = pointer_remove(target, *ftoks, &v);
      } else {
        auto* src = find_pointer(target, *ftoks);
        if (!src) {
          err = std::string{"missing path"};
        } else {
          copied += json_length_up_to(*src, max_json_patch_copy_bytes - copied);
          if (copied > max_json_patch_copy_bytes)
            return "Unable to complete the copy, the accumulated size "
                   "increase of copy is "
                   + std::to_string(copied) + ", exceeding the limit "
                   + std::to_string(max_json_patch_copy_bytes);
          v = *src;
        }
      }
      if (!err)
        err = pointer_add(target, *toks, std::move(v));
    } else {
      return "unknown JSON patch operation \"" + *name + "\"";
    }
    if (err)
      return "jsonpatch " + *name + " operation does not apply: " + *err
             + " (path \"" + *path + "\")";
  }
  return std::nullopt;
}

} // namespace

std::optional<std::string> apply_patch(json::value& target,
                                       const json::value& patch,
                                       patch_type type, storage_kind storage) {
  switch (type) {
  case patch_type::merge:
    if (!patch.is_object())
      return std::string{"a merge patch must be a JSON object"};
    merge_patch(target, patch);
    return std::nullopt;
  case patch_type::strategic: {
    if (!patch.is_object())
      return std::string{"a strategic merge patch must be a JSON object"};
    if (!target.is_object())
      target = json::object{};
    strategic_merger m{storage};
    m.merge_map(target.as_object(), patch.as_object(), "");
    return m.error;
  }
  case patch_type::json_patch:
    return json_patch(target, patch);
  case patch_type::apply:
    break;
  }
  return std::string{"server-side apply is not supported"};
}

} // namespace tessera::apiserver
