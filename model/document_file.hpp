// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// The one reader of YAML and JSON files the command line takes (object
/// manifests, scheduler configurations, node templates, perf workloads): it
/// refuses what cannot be read before any parser sees it, so that a bad file
/// fails quickly, in little memory, with the file's name and the problem.
///
/// - Only UTF-8 is read: a UTF-16 or UTF-32 byte order mark, or a NUL byte
///   (UTF-16 without a mark), is "encoding not supported". A UTF-8 byte order
///   mark is skipped.
/// - A cheap scan tracks the nesting of flow collections (`[`, `{`: all of
///   JSON) outside strings and comments and stops at `max_nesting` levels,
///   before a parser builds anything: yaml-cpp, in particular, tokenizes a
///   whole line of `[[[[` before it builds a node.
/// - The same scan refuses a quoted key given twice in one flow mapping (so
///   every JSON object), as kubectl does: `line 5: metadata.labels: mapping
///   key "app" already defined at line 3`. Block mappings are checked by the
///   YAML readers themselves (`decode_manifest`, or `check_keys` below).
/// - A directory given where objects are expected stands for its manifests
///   (`manifest_files`), as for `kubectl -f`.
#pragma once

#include "support/error.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace tessera::model {

/// What `read_document_file` checks besides encoding and nesting.
struct document_checks {
  /// Also parse the YAML once for keys given twice in a block mapping. For
  /// callers whose parser keeps the first or last value silently.
  bool keys = false;
};

/// Checks encoding, flow nesting and duplicate flow keys of `text` (a UTF-8
/// byte order mark is allowed). The error names the line: `line 3, column
/// 70: nesting deeper than 64 levels`.
[[nodiscard]] error check_document_text(std::string_view text);

/// Refuses a YAML mapping key given twice anywhere in `text` (every
/// document), with its line, path and the line of its first definition.
[[nodiscard]] error check_duplicate_keys(std::string_view text);

/// Reads `path` and checks it as above; the text comes back without its
/// byte order mark. Errors start with `path: ` (ec::not_found when the file
/// does not exist, ec::invalid_input otherwise).
[[nodiscard]] expected<std::string>
read_document_file(const std::string& path, const document_checks& checks = {});

/// The files `path` stands for: itself when it is not a directory; else the
/// files in it whose names end in `.json`, `.yaml` or `.yml`, in name order,
/// and with `recursive` those of its subdirectories too (kubectl's `-f DIR`
/// and `-R`). A directory without any is an error.
[[nodiscard]] expected<std::vector<std::string>>
manifest_files(const std::string& path, bool recursive = false);

} // namespace tessera::model
