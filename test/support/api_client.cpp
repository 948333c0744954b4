// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "test/support/api_client.hpp"

#include "io/http_client.hpp"
#include "test/support/builders.hpp"

#include <boost/json.hpp>

namespace tessera::test {

std::unique_ptr<apiserver::api_server>
start_test_server(apiserver::store& st, apiserver::server_config cfg) {
  cfg.port = 0;
  auto s = apiserver::api_server::start(st, std::move(cfg));
  if (!s)
    builder_failure("cannot start the test API server: " + s.err().message);
  return std::move(*s);
}

io::rest_client_config client_config_for(const std::string& url) {
  auto parsed = io::parse_server_url(url);
  if (!parsed)
    builder_failure("bad server URL \"" + url + "\": " + parsed.err().message);
  io::rest_client_config rc;
  rc.target.server = url;
  rc.target.url = *parsed;
  rc.target.tls.enabled = rc.target.url.tls;
  rc.qps = 0;
  return rc;
}

io::client_config http_config_for(const std::string& url) {
  auto parsed = io::parse_server_url(url);
  if (!parsed)
    builder_failure("bad server URL \"" + url + "\": " + parsed.err().message);
  io::client_config cfg;
  cfg.host = parsed->host;
  cfg.port = parsed->port;
  return cfg;
}

io::http_client http_client_for(const std::string& url) {
  return io::http_client{http_config_for(url)};
}

// A plain loop rather than std::regex: GCC 12 warns falsely inside
// std::regex under the sanitizers.
std::string json_text_at(const boost::json::value& v,
                         std::initializer_list<std::string_view> path) {
  const boost::json::value* cur = &v;
  for (auto k : path) {
    if (!cur->is_object())
      return {};
    cur = cur->as_object().if_contains(k);
    if (!cur)
      return {};
  }
  if (cur->is_string())
    return std::string{cur->as_string()};
  return boost::json::serialize(*cur);
}

bool is_host_uuid(const std::string& id) {
  auto us = id.rfind('_');
  if (us == std::string::npos || us == 0 || id.size() - us - 1 != 36)
    return false;
  std::string uuid = id.substr(us + 1);
  for (std::size_t i = 0; i < uuid.size(); ++i) {
    char c = uuid[i];
    bool dash = i == 8 || i == 13 || i == 18 || i == 23;
    bool hex = (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
    if (dash ? c != '-' : !hex)
      return false;
  }
  return uuid[14] == '4'
         && std::string{"89ab"}.find(uuid[19]) != std::string::npos;
}

} // namespace tessera::test
