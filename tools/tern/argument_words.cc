// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "argument_words.h"

namespace tern::tool {

namespace {

// "--long=VALUE"; an empty value as a word of its own, since CLI11 takes "--long=" as a
// value still to come.
void addValued(std::vector<std::string>& words, const std::string& longName,
               const std::string& value) {
  if (value.empty()) {
    words.push_back(longName);
    words.emplace_back();
  } else {
    words.push_back(longName + "=" + value);
  }
}

}  // namespace

ArgumentWords normalizeArguments(const std::vector<std::string>& args, const OptionTable& table) {
  ArgumentWords result;
  auto fail = [&](std::string message) {
    result.words.clear();
    result.error = std::move(message);
    return result;
  };
  bool optionsEnded = false;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& word = args[i];
    if (optionsEnded || word.size() < 2 || word[0] != '-') {
      addValued(result.words, "--url", word);
      continue;
    }
    if (word == "--") {
      optionsEnded = true;
      continue;
    }
    if (word.starts_with("--")) {
      auto it = table.longNames.find(word);
      if (it == table.longNames.end()) return fail("option " + word + ": is unknown");
      if (!it->second.takesValue) {
        result.words.push_back(it->second.longName);
        continue;
      }
      if (i + 1 >= args.size()) return fail("option " + word + ": requires parameter");
      addValued(result.words, it->second.longName, args[++i]);
      continue;
    }
    for (size_t j = 1; j < word.size(); ++j) {
      auto it = table.shortNames.find(word[j]);
      if (it == table.shortNames.end()) return fail("option " + word + ": is unknown");
      if (!it->second.takesValue) {
        result.words.push_back(it->second.longName);
        continue;
      }
      std::string value = word.substr(j + 1);
      if (value.empty()) {
        if (i + 1 >= args.size()) {
          return fail(std::string("option -") + word[j] + ": requires parameter");
        }
        value = args[++i];
      }
      addValued(result.words, it->second.longName, value);
      break;
    }
  }
  return result;
}

}  // namespace tern::tool
