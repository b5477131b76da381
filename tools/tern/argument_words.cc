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

std::vector<std::string> configFileWords(std::string_view text) {
  std::vector<std::string> words;
  auto blank = [](char c) { return c == ' ' || c == '\t'; };
  size_t lineStart = 0;
  while (lineStart < text.size()) {
    size_t lineEnd = text.find('\n', lineStart);
    if (lineEnd == std::string_view::npos) lineEnd = text.size();
    std::string_view line = text.substr(lineStart, lineEnd - lineStart);
    lineStart = lineEnd + 1;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    size_t i = 0;
    while (i < line.size() && blank(line[i])) ++i;
    if (i == line.size() || line[i] == '#') continue;
    // A dashed name ends at whitespace only (so "--data=x" is unknown, as on the command line).
    bool dashed = line[i] == '-';
    size_t nameEnd = i;
    while (nameEnd < line.size() && !blank(line[nameEnd]) &&
           (dashed || (line[nameEnd] != '=' && line[nameEnd] != ':'))) {
      ++nameEnd;
    }
    std::string name(line.substr(i, nameEnd - i));
    if (!name.starts_with('-')) name = "--" + name;
    words.push_back(name);
    i = nameEnd;
    while (i < line.size() && blank(line[i])) ++i;
    if (!dashed && i < line.size() && (line[i] == '=' || line[i] == ':')) ++i;
    while (i < line.size() && blank(line[i])) ++i;
    if (i == line.size()) continue;  // A flag.
    std::string value;
    if (line[i] == '"') {
      for (++i; i < line.size() && line[i] != '"'; ++i) {
        if (line[i] == '\\' && i + 1 < line.size()) {
          char next = line[++i];
          value += next == 'n'   ? '\n'
                   : next == 't' ? '\t'
                   : next == 'r' ? '\r'
                   : next == 'v' ? '\v'
                                 : next;
        } else {
          value += line[i];
        }
      }
    } else {
      size_t end = i;
      while (end < line.size() && !blank(line[end])) ++end;
      value = line.substr(i, end - i);
    }
    words.push_back(std::move(value));
  }
  return words;
}

}  // namespace tern::tool
