// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "model/decode.hpp"
#include "model/document_file.hpp"
#include "test/support/temp_dir.hpp"
#include "test/support/wait.hpp"

#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <string>
#include <unistd.h>
#include <vector>

namespace tessera::model {
namespace {

using namespace std::string_literals;

std::string nested(std::size_t levels) {
  return std::string(levels, '[') + std::string(levels, ']');
}

// `{"k0": 0, ..., "k<n-1>": 0, "k<again>": 1}` on one line.
std::string many_keys(std::size_t n, std::size_t again) {
  std::string out = "{";
  for (std::size_t i = 0; i < n; ++i)
    out += "\"k" + std::to_string(i) + "\": 0, ";
  return out + "\"k" + std::to_string(again) + "\": 1}";
}

TEST(document_file, check_document_text) {
  struct test_case {
    std::string name;
    std::string text;
    /// Empty: accepted.
    std::string want_error;
  };
  const std::vector<test_case> cases{
    {"64 levels of JSON", nested(64), ""},
    {"65 levels of JSON", nested(65),
     "line 1, column 65: nesting deeper than 64 levels"},
    {"deep flow YAML in a block mapping",
     "kind: Pod\nspec:\n  x: " + nested(100),
     "line 3, column 70: nesting deeper than 64 levels"},
    {"deep objects", std::string(70, '{'),
     "line 1, column 65: nesting deeper than 64 levels"},
    {"brackets in strings", R"({"a": ")" + std::string(100, '[') + R"("})", ""},
    {"brackets in single quotes", "a: '" + std::string(100, '{') + "'\n", ""},
    {"brackets in a plain scalar", "a: b" + std::string(100, '[') + "\n", ""},
    {"brackets in a comment", "a: 1 # " + std::string(100, '[') + "\n", ""},
    {"brackets in a block scalar",
     "data: |\n  " + std::string(100, '[') + "\n\n  more\nb: [1]\n", ""},
    {"an apostrophe in a flow plain scalar",
     "a: [it's]\nb: x'\nc: " + nested(64) + "\n", ""},
    {"UTF-8 byte order mark", "\xEF\xBB\xBF{\"a\": 1}", ""},
    {"UTF-16 LE byte order mark", "\xFF\xFE{\0\"\0"s,
     "encoding not supported: UTF-16 (byte order mark); only UTF-8 is read"},
    {"UTF-16 BE byte order mark", "\xFE\xFF\0{"s,
     "encoding not supported: UTF-16 (byte order mark); only UTF-8 is read"},
    {"UTF-32 LE byte order mark", "\xFF\xFE\0\0{\0\0\0"s,
     "encoding not supported: UTF-32 (byte order mark); only UTF-8 is read"},
    {"UTF-16 without a mark", "k\0i\0n\0d\0"s,
     "encoding not supported: NUL byte at offset 1 (UTF-16 or UTF-32 text?); "
     "only UTF-8 is read"},
    {"a JSON key twice", "{\n  \"a\": 1,\n  \"a\": 2\n}",
     "line 3: mapping key \"a\" already defined at line 2"},
    {"a nested JSON key twice",
     R"({"metadata": {"labels": {"x": "1", "x": "2"}}})",
     "line 1: metadata.labels: mapping key \"x\" already defined at line 1"},
    {"a key twice in a list item", "{\"items\": [{}, {\"k\": 1,\n \"k\": 2}]}",
     "line 2: items[1]: mapping key \"k\" already defined at line 1"},
    {"a key twice among many", many_keys(40, 3),
     "line 1: mapping key \"k3\" already defined at line 1"},
    {"many distinct keys", many_keys(40, 40), ""},
    {"the same key in two objects", R"([{"a": 1}, {"a": 2}])", ""},
    {"a value equal to a key", R"({"a": "a", "b": "a"})", ""},
  };
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    error e = check_document_text(tc.text);
    EXPECT_EQ(e.message, tc.want_error);
  }
}

TEST(document_file, check_duplicate_keys_in_block_mappings) {
  struct test_case {
    std::string name;
    std::string text;
    std::string want_error;
  };
  const std::vector<test_case> cases{
    {"distinct keys", "a: 1\nb:\n  c: 2\n", ""},
    {"a top-level key twice", "a: 1\nb: 2\na: 3\n",
     "line 3: mapping key \"a\" already defined at line 1"},
    {"a key twice in a list item",
     "steps:\n- name: x\n  opcode: createPods\n  opcode: createNodes\n",
     "line 4: steps[0]: mapping key \"opcode\" already defined at line 3"},
    {"a key twice in a later document", "a: 1\n---\nb: 1\nb: 2\n",
     "line 4: mapping key \"b\" already defined at line 3"},
    {"merge keys are not duplicates",
     "base: &b {x: 1}\nm:\n  <<: *b\n  <<: *b\n  x: 2\n", ""},
  };
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    EXPECT_EQ(check_duplicate_keys(tc.text).message, tc.want_error);
  }
}

TEST(document_file, decode_manifest_refuses_a_yaml_key_twice) {
  auto m = decode_manifest("apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\n"
                           "  labels:\n    app: a\n    app: b\n");
  ASSERT_FALSE(m);
  EXPECT_EQ(m.err().message, "doc 1: metadata.labels: line 7: mapping key "
                             "\"app\" already defined at line 6");
}

// yaml-cpp 0.7 never consumes a ',' where a document's root would start and
// reports empty documents there forever; every reader of YAML streams must
// still return, and the converters name the place.
TEST(document_file, a_comma_where_a_document_starts_is_refused) {
  for (std::string text : {"\"\",", "[1],", "!!str ,", "a: 1\n---\n'x' ,\n"}) {
    SCOPED_TRACE(text);
    test::finishes_within("check_duplicate_keys", [&] {
      // Not YAML: left to the caller's parser, as any other syntax error.
      EXPECT_FALSE(check_duplicate_keys(text));
    });
    test::finishes_within("yaml_documents_to_json", [&] {
      auto docs = yaml_documents_to_json(text);
      ASSERT_FALSE(docs.has_value());
      EXPECT_NE(
        docs.err().message.find("did not find expected <document start>"),
        std::string::npos)
        << docs.err().message;
    });
    test::finishes_within("decode_manifest", [&] {
      auto m = decode_manifest(text);
      ASSERT_FALSE(m.has_value());
      // "[1]," reads as JSON, and is refused as such.
      if (text.front() != '[') {
        EXPECT_NE(
          m.err().message.find("did not find expected <document start>"),
          std::string::npos)
          << m.err().message;
      }
    });
  }
}

TEST(document_file, read_document_file) {
  test::temp_dir dir;
  struct test_case {
    std::string name;
    std::string file; // empty: the directory itself
    std::string text;
    document_checks checks;
    std::string want_text;
    std::string want_error_after_path;
  };
  const std::vector<test_case> cases{
    {"plain", "a.yaml", "a: 1\n", {}, "a: 1\n", ""},
    {"byte order mark skipped", "bom.json", "\xEF\xBB\xBF{}", {}, "{}", ""},
    {"UTF-16",
     "u16.yaml",
     "\xFF\xFE"
     "a\0:\0"s,
     {},
     "",
     ": encoding not supported: UTF-16 (byte order mark); only UTF-8 is read"},
    {"too deep",
     "deep.json",
     nested(200),
     {},
     "",
     ": line 1, column 65: nesting deeper than 64 levels"},
    {"block key twice, unchecked",
     "dup.yaml",
     "a: 1\na: 2\n",
     {},
     "a: 1\na: 2\n",
     ""},
    {"block key twice, checked",
     "dup2.yaml",
     "a: 1\na: 2\n",
     {.keys = true},
     "",
     ": line 2: mapping key \"a\" already defined at line 1"},
    {"a directory", "", "", {}, "", ": is a directory"},
  };
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    const std::string path
      = tc.file.empty() ? dir.path() : dir.write(tc.file, tc.text);
    auto got = read_document_file(path, tc.checks);
    if (tc.want_error_after_path.empty()) {
      ASSERT_TRUE(got) << got.err().message;
      EXPECT_EQ(*got, tc.want_text);
    } else {
      ASSERT_FALSE(got);
      EXPECT_EQ(got.err().code, ec::invalid_input);
      EXPECT_EQ(got.err().message, path + tc.want_error_after_path);
    }
  }
  auto missing = read_document_file(dir.file("none.yaml"));
  ASSERT_FALSE(missing);
  EXPECT_EQ(missing.err().code, ec::not_found);
}

// The depth limit applies before a parser builds anything: reading and
// decoding 24 MB of `[` grows the process by little more than the file's
// text (it grew by about 1.8 GB when yaml-cpp saw the text first).
TEST(document_file, deep_nesting_is_refused_in_little_memory) {
  test::temp_dir dir;
  constexpr std::size_t size = std::size_t{24} << 20;
  struct test_case {
    std::string name;
    std::string prefix;
  };
  const std::vector<test_case> cases{{"JSON", ""}, {"YAML", "kind: Pod\nx: "}};
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    const std::string path
      = dir.write("deep.yaml", tc.prefix + std::string(size, '['));
    const pid_t child = fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
      rusage before{};
      getrusage(RUSAGE_SELF, &before);
      auto text = read_document_file(path);
      // Whatever came through is decoded too, as simulate would.
      const bool refused
        = !text || !decode_manifest(*text) || text->size() < size;
      rusage after{};
      getrusage(RUSAGE_SELF, &after);
      const long grown_kib = after.ru_maxrss - before.ru_maxrss;
      _exit(refused && grown_kib < 96 * 1024 ? 0 : 1);
    }
    int status = 0;
    ASSERT_EQ(waitpid(child, &status, 0), child);
    ASSERT_TRUE(WIFEXITED(status));
    EXPECT_EQ(WEXITSTATUS(status), 0);
    auto direct = read_document_file(path);
    ASSERT_FALSE(direct);
    EXPECT_NE(direct.err().message.find("nesting deeper than 64 levels"),
              std::string::npos);
  }
}

TEST(document_file, manifest_files) {
  test::temp_dir dir;
  dir.write("b.yaml", "");
  dir.write("a.json", "");
  dir.write("c.yml", "");
  dir.write("notes.txt", "");
  dir.write("sub/d.yaml", "");
  dir.write("empty/readme.md", "");
  struct test_case {
    std::string name;
    std::string path;
    bool recursive;
    std::vector<std::string> want;
    std::string want_error;
  };
  const std::vector<test_case> cases{
    {"a file is itself",
     dir.file("notes.txt"),
     false,
     {dir.file("notes.txt")},
     ""},
    {"a directory: its manifests in name order",
     dir.path(),
     false,
     {dir.file("a.json"), dir.file("b.yaml"), dir.file("c.yml")},
     ""},
    {"recursive",
     dir.path(),
     true,
     {dir.file("a.json"), dir.file("b.yaml"), dir.file("c.yml"),
      dir.file("sub/d.yaml")},
     ""},
    {"no manifests",
     dir.file("empty"),
     false,
     {},
     dir.file("empty") + ": no .json, .yaml or .yml file in the directory"},
  };
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    auto got = manifest_files(tc.path, tc.recursive);
    if (tc.want_error.empty()) {
      ASSERT_TRUE(got) << got.err().message;
      EXPECT_EQ(*got, tc.want);
    } else {
      ASSERT_FALSE(got);
      EXPECT_EQ(got.err().message, tc.want_error);
    }
  }
}

// No false alarms: every YAML and JSON file of the repository passes.
TEST(document_file, the_repository_files_pass) {
  const char* root = std::getenv("TESSERA_SOURCE_DIR");
  ASSERT_NE(root, nullptr) << "ctest sets TESSERA_SOURCE_DIR";
  std::size_t checked = 0;
  for (const char* sub : {"examples", "perf", "config", "deploy", "test"}) {
    const std::filesystem::path dir = std::filesystem::path{root} / sub;
    auto files = manifest_files(dir.string(), true);
    ASSERT_TRUE(files) << files.err().message;
    for (const auto& f : *files) {
      SCOPED_TRACE(f);
      auto text = read_document_file(f, {.keys = true});
      EXPECT_TRUE(text) << text.err().message;
      ++checked;
    }
  }
  EXPECT_GT(checked, 20U);
}

} // namespace
} // namespace tessera::model
