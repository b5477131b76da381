// A user's first program against the installed package: it must compile, link (with tern's
// dependencies: OpenSSL, zlib, libidn2, libpsl) and run.
#include <iostream>

#include "tern/tern.h"

int main() {
  tern::HttpUrl url = tern::HttpUrl::get("https://www.example.co.uk/search?q=tern");
  tern::Request request = tern::Request::Builder()
                              .url(url)
                              .post(tern::FormBody::Builder().add("q", "a b").build())
                              .build();
  tern::Response response = tern::Response::Builder()
                                .request(request)
                                .protocol(tern::Protocol::HTTP_1_1)
                                .code(200)
                                .message("OK")
                                .body(tern::ResponseBody::create("hello"))
                                .build();
  std::string body = response.body()->string();
  std::cout << "tern " << tern::version() << " " << request.method() << " "
            << request.url().toString() << " -> " << body << " (private domain "
            << url.topPrivateDomain().value_or("?") << ")\n";
  bool ok = body == "hello" && url.topPrivateDomain() == "example.co.uk" &&
            tern::HttpUrl::get(
                "http://b\xC3\xBC"
                "cher.example/")
                    .host() == "xn--bcher-kva.example";
  return ok ? 0 : 1;
}
