// A user's first test against the installed package, built with `pkg-config tern-mockwebserver`:
// a real call (threads, sockets) to an in-process MockWebServer must compile, link and run.
#include <iostream>

#include "tern/mockwebserver/mock_web_server.h"
#include "tern/tern.h"

int main() {
  tern::mockwebserver::MockWebServer server;
  server.enqueue(tern::mockwebserver::MockResponse::Builder().body("hello from mock").build());
  tern::Client client = tern::Client::Builder().build();
  tern::Response response =
      client.newCall(tern::Request::Builder().url(server.url("/")).build())->execute();
  std::string body = response.body()->string();
  std::cout << response.code() << " " << body << "\n";
  return response.code() == 200 && body == "hello from mock" ? 0 : 1;
}
