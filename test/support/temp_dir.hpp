// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// `temp_dir`: a private temporary directory for a test's files
/// (kubeconfigs, token files, certificates, workloads), removed with
/// everything in it when the object goes.
#pragma once

#include <string>

namespace tessera::test {

/// A fresh directory under the system's temporary directory, removed at the
/// end of its scope.
class temp_dir {
public:
  temp_dir();
  ~temp_dir();
  temp_dir(const temp_dir&) = delete;
  temp_dir& operator=(const temp_dir&) = delete;

  /// The directory's absolute path.
  const std::string& path() const noexcept {
    return path_;
  }
  /// The path of `name` inside the directory (the file need not exist).
  std::string file(const std::string& name) const;
  /// Writes `text` to `name` inside the directory, making its parent
  /// directories; executable for the owner when asked (exec plugins).
  /// Returns the file's path.
  std::string write(const std::string& name, const std::string& text,
                    bool executable = false) const;

private:
  std::string path_;
};

} // namespace tessera::test
