// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "model/document_file.hpp"

#include "model/json_reader.hpp"
#include "model/yaml_stream.hpp"

#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/exceptions.h>
#include <yaml-cpp/mark.h>
#include <yaml-cpp/parser.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <span>
#include <sstream>
#include <system_error>
#include <unordered_map>
#include <utility>

namespace tessera::model {

namespace {

namespace fs = std::filesystem;

constexpr std::string_view utf8_bom = "\xEF\xBB\xBF";

/// Thrown inside the scanners; turned into an error at their entry points.
struct scan_failure {
  std::string message;
};

/// kubectl's words for a key given twice, after the line and the path of
/// the mapping holding it.
std::string duplicate_key(int line, const std::string& where,
                          std::string_view key, int first_line) {
  return "line " + std::to_string(line) + ": "
         + (where.empty() ? std::string{} : where + ": ") + "mapping key \""
         + std::string{key} + "\" already defined at line "
         + std::to_string(first_line);
}

/// The keys of one mapping, each with the line it was given at: a short
/// list while small, hashed beyond, so that a mapping with very many keys
/// costs no more than linear time.
template <class Key> class key_lines {
public:
  /// The line `key` was given at before, or 0 after recording it at `line`.
  int first_or_add(const Key& key, int line) {
    if (!index_.empty()) {
      auto [at, added] = index_.emplace(key, line);
      return added ? 0 : at->second;
    }
    for (const auto& [k, first] : list_)
      if (k == key)
        return first;
    list_.emplace_back(key, line);
    if (list_.size() > short_list)
      index_.insert(list_.begin(), list_.end());
    return 0;
  }

private:
  static constexpr std::size_t short_list = 16;
  std::vector<std::pair<Key, int>> list_;
  std::unordered_map<Key, int> index_;
};

/// The flow-collection scan of `check_document_text`. Block context is read
/// line by line only to find where flow collections, quoted scalars,
/// comments and block scalars start; inside flow collections every bracket
/// outside quotes counts. It errs on the side of counting less: what it
/// misses the parsers still limit, what it counts is real nesting.
class flow_scan {
public:
  explicit flow_scan(std::string_view text) : s_(text) {
  }

  void run() {
    while (i_ < s_.size())
      block_line();
  }

private:
  struct level {
    bool is_map = false;
    bool has_key = false;
    std::size_t index = 0;
    key_lines<std::string_view> keys;
    std::string_view key;
    /// A quoted scalar that becomes a key if a `:` follows.
    std::string_view pending;
    int pending_line = 0;
  };

  static bool blank(char c) noexcept {
    return c == ' ' || c == '\t' || c == '\r';
  }
  bool at_break(std::size_t k) const noexcept {
    return k >= s_.size() || blank(s_[k]) || s_[k] == '\n';
  }
  int column() const noexcept {
    return static_cast<int>(i_ - line_start_) + 1;
  }
  void newline() noexcept {
    ++line_;
    line_start_ = i_ + 1;
  }
  void skip_to_eol() noexcept {
    while (i_ < s_.size() && s_[i_] != '\n')
      ++i_;
  }

  /// Skips a quoted scalar starting at `i_` (which may span lines) and
  /// returns its raw content; `i_` ends after the closing quote.
  std::string_view quoted() {
    const char q = s_[i_++];
    const std::size_t start = i_;
    while (i_ < s_.size()) {
      const char c = s_[i_];
      if (c == '\n') {
        newline();
      } else if (q == '"' && c == '\\') {
        ++i_;
        if (i_ < s_.size() && s_[i_] == '\n')
          newline();
      } else if (c == q) {
        if (q == '\'' && i_ + 1 < s_.size() && s_[i_ + 1] == '\'') {
          ++i_; // '' is an escaped quote
        } else {
          return s_.substr(start, i_++ - start);
        }
      }
      ++i_;
    }
    return s_.substr(start); // unterminated: the parser reports it
  }

  /// The path of the mapping or sequence holding the innermost level.
  std::string path() const {
    const std::span<const level> outer{levels_.data(), levels_.size() - 1};
    return json_detail::frames_path(outer,
                                    [](const level& l) { return l.index; });
  }

  [[noreturn]] void fail(const std::string& problem) const {
    throw scan_failure{problem};
  }

  void open(bool is_map) {
    if (levels_.size() >= static_cast<std::size_t>(json_detail::max_nesting))
      fail("line " + std::to_string(line_) + ", column "
           + std::to_string(column()) + ": nesting deeper than "
           + std::to_string(json_detail::max_nesting) + " levels");
    level l;
    l.is_map = is_map;
    levels_.push_back(std::move(l));
    ++i_;
  }

  void key_given(level& l) {
    if (int first = l.keys.first_or_add(l.pending, l.pending_line))
      fail(duplicate_key(l.pending_line, path(), l.pending, first));
    l.key = l.pending;
    l.has_key = true;
    l.pending = {};
  }

  /// Reads from a `[` or `{` at `i_` until its collection closes.
  void flow() {
    open(s_[i_] == '{');
    // A quote starts a quoted scalar only where a scalar starts: in
    // `[it's, x]` the apostrophe belongs to a plain scalar.
    bool token_start = true;
    while (i_ < s_.size() && !levels_.empty()) {
      const char c = s_[i_];
      level& top = levels_.back();
      if (c == '\n') {
        newline();
        ++i_;
      } else if (blank(c)) {
        ++i_;
      } else if (c == '#' && i_ > 0 && at_break(i_ - 1)) {
        skip_to_eol();
      } else if ((c == '"' || c == '\'') && token_start) {
        const int line = line_;
        std::string_view raw = quoted();
        top.pending = raw;
        top.pending_line = line;
        token_start = false;
      } else if (c == '[' || c == '{') {
        top.pending = {};
        open(c == '{');
        token_start = true;
      } else if (c == ']' || c == '}') {
        levels_.pop_back();
        ++i_;
        token_start = false;
      } else if (c == ',') {
        ++top.index;
        top.pending = {};
        ++i_;
        token_start = true;
      } else if (c == ':') {
        if (top.is_map && top.pending.data() != nullptr)
          key_given(top);
        ++i_;
        token_start = true;
      } else {
        top.pending = {};
        ++i_;
        token_start = false;
      }
    }
    levels_.clear();
  }

  /// Skips the lines of a block scalar whose header is on a line indented
  /// by `indent`: blank lines and lines indented more.
  void block_scalar(std::size_t indent) {
    skip_to_eol();
    while (i_ < s_.size()) {
      std::size_t k = i_ + 1;
      std::size_t n = 0;
      while (k < s_.size() && s_[k] == ' ') {
        ++k;
        ++n;
      }
      const bool empty = k >= s_.size() || s_[k] == '\n' || s_[k] == '\r';
      if (!empty && n <= indent)
        return;
      newline();
      i_ = k;
      skip_to_eol();
    }
  }

  /// One line in block context (from `i_`, the start of a line).
  void block_line() {
    std::size_t indent = 0;
    while (i_ < s_.size() && s_[i_] == ' ') {
      ++i_;
      ++indent;
    }
    bool node_start = true;
    if (s_.substr(i_).starts_with("---") && at_break(i_ + 3))
      i_ += 3;
    while (i_ < s_.size() && s_[i_] != '\n') {
      const char c = s_[i_];
      if (blank(c)) {
        ++i_;
      } else if (c == '#' && (i_ == line_start_ || at_break(i_ - 1))) {
        skip_to_eol();
      } else if (node_start && (c == '-' || c == '?') && at_break(i_ + 1)) {
        ++i_;
      } else if (node_start && (c == '[' || c == '{')) {
        flow();
        node_start = false;
      } else if (node_start && (c == '"' || c == '\'')) {
        (void)quoted();
        node_start = false;
      } else if (node_start && (c == '|' || c == '>')) {
        block_scalar(indent);
      } else if (node_start && (c == '&' || c == '!')) {
        while (!at_break(i_))
          ++i_;
      } else if (c == ':' && at_break(i_ + 1)) {
        node_start = true;
        ++i_;
      } else {
        node_start = false;
        ++i_;
      }
    }
    if (i_ < s_.size()) {
      newline();
      ++i_;
    }
  }

  std::string_view s_;
  std::size_t i_ = 0;
  int line_ = 1;
  std::size_t line_start_ = 0;
  std::vector<level> levels_;
};

/// Why `text` is not UTF-8, or empty.
std::string encoding_problem(std::string_view text) {
  auto starts = [&](std::string_view bom) { return text.starts_with(bom); };
  using namespace std::string_view_literals;
  if (starts("\xFF\xFE\0\0"sv) || starts("\0\0\xFE\xFF"sv))
    return "encoding not supported: UTF-32 (byte order mark); only UTF-8 is "
           "read";
  if (starts("\xFF\xFE"sv) || starts("\xFE\xFF"sv))
    return "encoding not supported: UTF-16 (byte order mark); only UTF-8 is "
           "read";
  if (auto nul = text.find('\0'); nul != std::string_view::npos)
    return "encoding not supported: NUL byte at offset " + std::to_string(nul)
           + " (UTF-16 or UTF-32 text?); only UTF-8 is read";
  return {};
}

/// Frames of `key_checker`: mappings remember their keys.
struct key_frame {
  bool is_map = false;
  bool has_key = false;
  std::size_t index = 0;
  std::string key;
  int key_line = 0;
  key_lines<std::string> keys;
};

/// Walks yaml-cpp's events of every document and throws on a scalar key
/// given twice in one mapping (`<<` merge keys aside: explicit keys win
/// over merged ones by design).
class key_checker final : public YAML::EventHandler {
public:
  void OnDocumentStart(const YAML::Mark&) override {
    stack_.clear();
  }
  void OnDocumentEnd() override {
  }
  void OnNull(const YAML::Mark& mark, YAML::anchor_t) override {
    value(mark, "");
  }
  void OnAlias(const YAML::Mark& mark, YAML::anchor_t) override {
    value(mark, "*");
  }
  void OnScalar(const YAML::Mark& mark, const std::string& tag, YAML::anchor_t,
                const std::string& text) override {
    value(mark, tag == "?" && text == "<<" ? std::string{} : text);
  }
  void OnSequenceStart(const YAML::Mark& mark, const std::string&,
                       YAML::anchor_t, YAML::EmitterStyle::value) override {
    open(mark, false);
  }
  void OnSequenceEnd() override {
    close();
  }
  void OnMapStart(const YAML::Mark& mark, const std::string&, YAML::anchor_t,
                  YAML::EmitterStyle::value) override {
    open(mark, true);
  }
  void OnMapEnd() override {
    close();
  }

private:
  void value(const YAML::Mark& mark, const std::string& text) {
    if (stack_.empty())
      return;
    key_frame& f = stack_.back();
    if (!f.is_map) {
      ++f.index;
      return;
    }
    if (f.has_key) {
      f.has_key = false;
      return;
    }
    const int line = mark.line + 1;
    if (!text.empty() && text != "*")
      if (int first = f.keys.first_or_add(text, line))
        throw scan_failure{duplicate_key(line, path(), text, first)};
    f.key = text;
    f.has_key = true;
  }
  void open(const YAML::Mark& mark, bool is_map) {
    if (!stack_.empty()) {
      key_frame& f = stack_.back();
      if (f.is_map && !f.has_key) {
        // A collection as a key: no text to compare; its value follows.
        f.key.clear();
        f.has_key = true;
      }
    }
    if (stack_.size() >= static_cast<std::size_t>(json_detail::max_nesting))
      throw scan_failure{
        "line " + std::to_string(mark.line + 1) + ": nesting deeper than "
        + std::to_string(json_detail::max_nesting) + " levels"};
    key_frame f;
    f.is_map = is_map;
    stack_.push_back(std::move(f));
  }
  void close() {
    stack_.pop_back();
    if (stack_.empty())
      return;
    key_frame& f = stack_.back();
    if (!f.is_map)
      ++f.index;
    else
      f.has_key = false;
  }
  std::string path() const {
    return json_detail::frames_path(stack_,
                                    [](const key_frame& f) { return f.index; });
  }

  std::vector<key_frame> stack_;
};

bool manifest_name(const fs::path& p) {
  const std::string ext = p.extension().string();
  return ext == ".json" || ext == ".yaml" || ext == ".yml";
}

} // namespace

error check_document_text(std::string_view text) {
  if (std::string problem = encoding_problem(text); !problem.empty())
    return make_error(ec::invalid_input, std::move(problem));
  if (text.starts_with(utf8_bom))
    text.remove_prefix(utf8_bom.size());
  try {
    flow_scan{text}.run();
  } catch (const scan_failure& f) {
    return make_error(ec::invalid_input, f.message);
  }
  return {};
}

error check_duplicate_keys(std::string_view text) {
  yaml_stream stream{text};
  key_checker checker;
  try {
    while (stream.next(checker)) {
    }
  } catch (const scan_failure& f) {
    return make_error(ec::invalid_input, f.message);
  } catch (const YAML::Exception&) {
    // Not YAML: the caller's parser reports it in its own words.
  }
  return {};
}

expected<std::string> read_document_file(const std::string& path,
                                         const document_checks& checks) {
  std::error_code fs_error;
  if (fs::is_directory(path, fs_error))
    return make_error(ec::invalid_input, path + ": is a directory");
  std::ifstream in{path, std::ios::binary};
  if (!in)
    return make_error(errno == ENOENT ? ec::not_found : ec::invalid_input,
                      path + ": cannot read: " + std::strerror(errno));
  std::string text;
  try {
    // Read a regular file in one piece: no doubling buffer, so a huge file
    // costs its size once.
    in.seekg(0, std::ios::end);
    const std::streamoff size = in.tellg();
    in.seekg(0, std::ios::beg);
    if (size >= 0 && in) {
      text.resize(static_cast<std::size_t>(size));
      in.read(text.data(), size);
      text.resize(static_cast<std::size_t>(in.gcount()));
    } else {
      in.clear();
      std::ostringstream buf;
      buf << in.rdbuf();
      text = std::move(buf).str();
    }
    if (in.bad())
      return make_error(ec::invalid_input, path + ": cannot read");
  } catch (const std::exception& e) {
    return make_error(ec::invalid_input, path + ": cannot read: " + e.what());
  }
  if (error e = check_document_text(text))
    return make_error(e.code, path + ": " + e.message);
  if (text.starts_with(utf8_bom))
    text.erase(0, utf8_bom.size());
  if (checks.keys)
    if (error e = check_duplicate_keys(text))
      return make_error(e.code, path + ": " + e.message);
  return text;
}

expected<std::vector<std::string>> manifest_files(const std::string& path,
                                                  bool recursive) {
  std::error_code fs_error;
  if (!fs::is_directory(path, fs_error))
    return std::vector<std::string>{path};
  std::vector<std::string> out;
  auto add = [&](const fs::directory_entry& entry) {
    std::error_code ignored;
    if (entry.is_regular_file(ignored) && manifest_name(entry.path()))
      out.push_back(entry.path().string());
  };
  if (recursive) {
    for (fs::recursive_directory_iterator it{path, fs_error}, end;
         !fs_error && it != end; it.increment(fs_error))
      add(*it);
  } else {
    for (fs::directory_iterator it{path, fs_error}, end; !fs_error && it != end;
         it.increment(fs_error))
      add(*it);
  }
  if (fs_error)
    return make_error(ec::invalid_input,
                      path + ": cannot read directory: " + fs_error.message());
  if (out.empty())
    return make_error(ec::invalid_input,
                      path + ": no .json, .yaml or .yml file in the directory");
  std::sort(out.begin(), out.end());
  return out;
}

} // namespace tessera::model
