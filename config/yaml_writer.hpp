// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// `yaml_value`: a small ordered document tree and its block-style YAML
/// rendering, used by `write_config`. Mappings keep insertion order (upstream's
/// field order), sequences of mappings are written kubectl-style (`- ` at the
/// parent key's indentation), and strings are quoted only when a plain scalar
/// would read back as something else. Internal to config/.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace tessera::config::detail {

class yaml_value {
public:
  enum class kind : std::uint8_t { scalar, map, list };

  /// A string scalar (quoted when needed).
  static yaml_value str(std::string_view text);
  /// A scalar written as is (numbers, booleans).
  static yaml_value raw(std::string text);
  static yaml_value integer(std::int64_t v);
  static yaml_value boolean(bool v);
  static yaml_value number(double v);
  static yaml_value map();
  static yaml_value list();

  /// Appends `key: value` to a map; returns the stored value.
  yaml_value& set(std::string key, yaml_value value);
  /// Appends an item to a list; returns the stored item.
  yaml_value& push(yaml_value value);

  kind type() const noexcept {
    return kind_;
  }
  /// Renders the value as a YAML document (a map or list at the top).
  std::string render() const;

private:
  void render_map(std::string& out, std::size_t indent) const;
  void render_list(std::string& out, std::size_t indent) const;
  void render_entry_value(std::string& out, std::size_t indent) const;

  kind kind_ = kind::scalar;
  std::string text_;
  std::vector<std::pair<std::string, yaml_value>> entries_;
  std::vector<yaml_value> items_;
};

} // namespace tessera::config::detail
