// A user's first program against the installed package: it must compile, link and run.
#include <iostream>

#include "tern/tern.h"

int main() {
  std::cout << "tern " << tern::version() << "\n";
  return tern::version().empty() ? 1 : 0;
}
