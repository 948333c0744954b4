// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "test/support/temp_dir.hpp"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <stdexcept>

namespace tessera::test {

namespace fs = std::filesystem;

temp_dir::temp_dir() {
  std::string tmpl = fs::temp_directory_path() / "tessera-test-XXXXXX";
  if (::mkdtemp(tmpl.data()) == nullptr)
    throw std::runtime_error("cannot make a temporary directory from " + tmpl);
  path_ = tmpl;
}

temp_dir::~temp_dir() {
  std::error_code ec;
  fs::remove_all(path_, ec);
}

std::string temp_dir::file(const std::string& name) const {
  return path_ + "/" + name;
}

std::string temp_dir::write(const std::string& name, const std::string& text,
                            bool executable) const {
  std::string p = file(name);
  fs::create_directories(fs::path(p).parent_path());
  std::ofstream{p} << text;
  if (executable)
    fs::permissions(p, fs::perms::owner_all);
  return p;
}

} // namespace tessera::test
