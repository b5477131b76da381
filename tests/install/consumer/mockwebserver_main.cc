// A user's first test against the installed package, built with `pkg-config tern-mockwebserver`
// or find_package: a real call (threads, sockets) to an in-process MockWebServer must compile,
// link and run, and a failure thrown inside the library must be caught by its type here (with a
// shared libtern, that needs the exception's type_info exported: TERN_API).
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
  if (response.code() != 200 || body != "hello from mock") return 1;

  try {
    client.newCall(tern::Request::Builder().url("http://127.0.0.1:1/").build())->execute();
    std::cerr << "a call to 127.0.0.1:1 did not fail\n";
    return 1;
  } catch (const tern::ConnectException& e) {
    std::cout << "caught tern::ConnectException: " << e.what() << "\n";
  }
  return 0;
}
