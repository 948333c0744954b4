// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "support/base64.hpp"

#include <cstddef>
#include <cstdint>

namespace tessera {

namespace {

constexpr std::string_view standard_alphabet
  = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
constexpr std::string_view url_alphabet
  = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

std::string encode(std::string_view in, std::string_view alphabet, bool pad) {
  std::string out;
  out.reserve((in.size() + 2) / 3 * 4);
  std::uint32_t acc = 0;
  int bits = 0;
  for (unsigned char c : in) {
    acc = (acc << 8) | c;
    bits += 8;
    while (bits >= 6) {
      bits -= 6;
      out += alphabet[(acc >> bits) & 63];
    }
  }
  if (bits > 0)
    out += alphabet[(acc << (6 - bits)) & 63];
  if (pad)
    while (out.size() % 4 != 0)
      out += '=';
  return out;
}

// The 6-bit value of `c` in `alphabet`, or -1.
int value_of(char c, std::string_view alphabet) noexcept {
  if (c >= 'A' && c <= 'Z')
    return c - 'A';
  if (c >= 'a' && c <= 'z')
    return c - 'a' + 26;
  if (c >= '0' && c <= '9')
    return c - '0' + 52;
  if (c == alphabet[62])
    return 62;
  if (c == alphabet[63])
    return 63;
  return -1;
}

// Padded input skips whitespace and must end in whole groups of four
// symbols; unpadded input accepts only alphabet characters.
std::optional<std::string> decode(std::string_view in,
                                  std::string_view alphabet, bool padded) {
  std::string out;
  std::uint32_t acc = 0;
  int bits = 0;
  int pad = 0;
  std::size_t symbols = 0;
  for (char c : in) {
    if (padded) {
      if (c == ' ' || c == '\n' || c == '\r' || c == '\t')
        continue;
      if (c == '=') {
        ++pad;
        ++symbols;
        continue;
      }
      if (pad > 0)
        return std::nullopt; // data after padding
    }
    int v = value_of(c, alphabet);
    if (v < 0)
      return std::nullopt;
    ++symbols;
    acc = (acc << 6) | static_cast<std::uint32_t>(v);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out.push_back(static_cast<char>((acc >> bits) & 0xff));
    }
  }
  if (padded && (pad > 2 || symbols % 4 != 0))
    return std::nullopt;
  return out;
}

} // namespace

std::string base64_encode(std::string_view in) {
  return encode(in, standard_alphabet, true);
}

std::optional<std::string> base64_decode(std::string_view in) {
  return decode(in, standard_alphabet, true);
}

std::string base64url_encode(std::string_view in) {
  return encode(in, url_alphabet, false);
}

std::optional<std::string> base64url_decode(std::string_view in) {
  return decode(in, url_alphabet, false);
}

} // namespace tessera
