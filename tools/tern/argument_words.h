// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace tern::tool {

// An option as the command line may spell it: its long name (the one the words below use) and
// whether it takes a value.
struct OptionSpelling {
  std::string longName;  // "--data"
  bool takesValue = false;
};

// The options a command line may name, by short letter ('d') and by long name ("--data").
struct OptionTable {
  std::map<char, OptionSpelling> shortNames;
  std::map<std::string, OptionSpelling> longNames;
};

// A command line in one spelling, or curl's message for why it cannot be read.
struct ArgumentWords {
  std::vector<std::string> words;
  std::string error;  // After "tern: "; empty if none.
};

// Reads `args` as curl's getparameter() does and spells each option "--long" or "--long=VALUE",
// each URL "--url=URL", so that the option parser needs no rules of its own:
// - short options cluster, and the first one that takes a value takes the rest of the word, or
//   the next word: "-sSL", "-sLo file", "-ofile", "-Lw%{http_code}";
// - a value is the next word whatever it looks like ("-d -x", "--max-redirs -1");
// - "--" ends the options: every word after it is a URL; a word that does not start with '-'
//   (and "-" alone) is a URL wherever it is;
// - "--name=value" is not curl's: "option --name=value: is unknown", as are unknown names
//   ("option -sQ: is unknown" names the whole word, as curl does).
ArgumentWords normalizeArguments(const std::vector<std::string>& args, const OptionTable& table);

// The command-line words of a -K/--config file, as curl reads one: an option a line, its name
// with or without leading dashes ("--silent", "silent", "-s"), its value after whitespace (or,
// for a name without dashes, '=' or ':': "url = http://a/", "output: file"), double-quoted with
// backslash escapes (\", \\, \n, \t, \r, \v) or else up to the next whitespace; '#' starts a
// comment line. A name without dashes is a long option's.
std::vector<std::string> configFileWords(std::string_view text);

}  // namespace tern::tool
