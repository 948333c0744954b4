// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

// The embedded API server's request handling, HTTP bytes in: one or more
// pipelined requests are parsed with the limits and the parser the server's
// sessions use, and each is handed to the REST handler as the session hands
// it, against a fresh store, so that a create can be followed by a patch, a
// list or a watch. The handler answers every failure with a Status; a 500
// means an exception escaped the handler's code, which is a finding, except
// the one 500 kube-apiserver itself gives (a create that carries a
// resourceVersion). A watch's pending events are rendered as the stream
// would render them.
#include "fuzz/fuzz_input.hpp"
#include "io/apiserver/handler.hpp"
#include "io/apiserver/store.hpp"
#include "support/clock.hpp"

#include <boost/asio/buffer.hpp>
#include <boost/beast/http/error.hpp>
#include <boost/beast/http/parser.hpp>
#include <boost/beast/http/string_body.hpp>

#include <string>
#include <vector>

namespace {

namespace http = boost::beast::http;

// The server's defaults (server_config::body_limit, its header limit).
constexpr std::size_t body_limit = 3 * 1024 * 1024;
constexpr std::size_t header_limit = 64 * 1024;
// Enough for a create, a patch, a read and a watch; more only slows down.
constexpr int max_requests = 8;

bool expected_internal_error(const std::string& body) {
  return body.find("resourceVersion should not be set on objects to be "
                   "created")
         != std::string::npos;
}

void drain_watch(tessera::apiserver::watch_stream& ws) {
  std::vector<tessera::apiserver::watch_event> events;
  ws.events->poll(events);
  bool first = true;
  for (const auto& ev : events) {
    if (ws.render) {
      std::string line = ws.render(ev, first);
      (void)line;
    }
    first = false;
  }
  ws.events->stop();
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data,
                                      std::size_t size) {
  using namespace tessera;
  static manual_clock clock;
  apiserver::store_config sc;
  sc.time = &clock;
  sc.seed = 1;
  sc.initial_resource_version = 1000;
  apiserver::store store{sc};
  apiserver::api_handler handler{store, apiserver::handler_config{}};

  auto rest = fuzz::as_text(data, size);
  for (int i = 0; i < max_requests && !rest.empty(); ++i) {
    http::request_parser<http::string_body> parser;
    parser.body_limit(body_limit);
    parser.header_limit(header_limit);
    parser.eager(true);
    boost::beast::error_code ec;
    while (!parser.is_done()) {
      auto used
        = parser.put(boost::asio::const_buffer(rest.data(), rest.size()), ec);
      rest.remove_prefix(used);
      if (ec == http::error::need_more) {
        ec = {};
        parser.put_eof(ec);
        break;
      }
      if (ec || used == 0)
        break;
    }
    if (ec || !parser.is_done())
      return 0; // the server answers 400 and closes the connection
    auto& req = parser.get();
    apiserver::http_request_view view;
    view.method = req.method_string();
    view.target = req.target();
    view.content_type = req[http::field::content_type];
    view.accept = req[http::field::accept];
    view.authorization = req[http::field::authorization];
    view.body = req.body();
    auto reply = handler.handle(view);
    if (reply.status == 500 && !expected_internal_error(reply.body))
      fuzz::finding("the handler answered 500", reply.body);
    if (reply.watch)
      drain_watch(*reply.watch);
    if (!req.keep_alive())
      break;
  }
  return 0;
}
