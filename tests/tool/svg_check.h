// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
// Reads an SVG file with python3's XML parser, so a test knows it is well-formed XML and what it
// holds. Header-only: tests/CMakeLists.txt compiles only *_test.cc files in a test folder.
#pragma once

#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <sstream>
#include <string>

namespace tern::tool::testing {

// What an SVG waterfall holds, by the classes of its <g> elements.
struct SvgSummary {
  bool wellFormed = false;
  int rows = 0;     // <g class="row ...">
  int reused = 0;   // rows also of class "reused"
  int failed = 0;   // rows also of class "failed"
  int legends = 0;  // <g class="legend">
  int rects = 0;    // <rect> elements inside rows: the phase segments
};

// Parses `svg` with python3 (xml.etree.ElementTree). A file that does not parse is
// wellFormed == false, with the parser's complaint added as a test failure.
inline SvgSummary readSvg(const std::filesystem::path& svg) {
  static const char* const kScript =
      "import sys, xml.etree.ElementTree as ET\n"
      "ns = '{http://www.w3.org/2000/svg}'\n"
      "root = ET.parse(sys.argv[1]).getroot()\n"
      "assert root.tag == ns + 'svg', root.tag\n"
      "classes = lambda e: (e.get('class') or '').split()\n"
      "rows = [g for g in root.iter(ns + 'g') if 'row' in classes(g)]\n"
      "print(len(rows), sum('reused' in classes(g) for g in rows),\n"
      "      sum('failed' in classes(g) for g in rows),\n"
      "      sum('legend' in classes(g) for g in root.iter(ns + 'g')),\n"
      "      sum(len(list(g.iter(ns + 'rect'))) for g in rows))\n";
  std::filesystem::path script = svg;
  script += ".check.py";
  {
    FILE* file = std::fopen(script.c_str(), "w");
    std::fputs(kScript, file);
    std::fclose(file);
  }
  std::string command = "python3 '" + script.string() + "' '" + svg.string() + "' 2>&1";
  FILE* pipe = ::popen(command.c_str(), "r");
  std::string output;
  char buffer[512];
  while (pipe != nullptr && std::fgets(buffer, sizeof(buffer), pipe) != nullptr) output += buffer;
  int status = pipe != nullptr ? ::pclose(pipe) : -1;
  std::filesystem::remove(script);
  SvgSummary summary;
  if (status != 0) {
    ADD_FAILURE() << "python3 could not read " << svg << " as SVG:\n" << output;
    return summary;
  }
  std::istringstream in(output);
  in >> summary.rows >> summary.reused >> summary.failed >> summary.legends >> summary.rects;
  summary.wellFormed = static_cast<bool>(in);
  if (!summary.wellFormed) ADD_FAILURE() << "unexpected checker output: " << output;
  return summary;
}

}  // namespace tern::tool::testing
