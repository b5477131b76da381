// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
// Runs the WHATWG URL Standard's conformance data (web-platform-tests urltestdata.json and
// toascii.json) through HttpUrl, for every case an HttpUrl can represent.
#include <gtest/gtest.h>

#include <iostream>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include <nlohmann/json.hpp>

#include "support/test_data.h"
#include "tern/http_url.h"

namespace tern {
namespace {

using nlohmann::json;

constexpr double kMaxDeviationRatio = 0.02;

bool isHttpScheme(const std::string& scheme) {
  return scheme == "http" || scheme == "https" || scheme == "ws" || scheme == "wss";
}

// The scheme a URL string starts with, lowercased, after the trimming the URL parser does; empty
// if it has none.
std::string schemeOf(const std::string& url) {
  std::string cleaned;
  for (const char c : url) {
    if (c != '\t' && c != '\n' && c != '\r') cleaned.push_back(c);
  }
  size_t start = 0;
  while (start < cleaned.size() && static_cast<unsigned char>(cleaned[start]) <= 0x20) ++start;
  std::string scheme;
  for (size_t i = start; i < cleaned.size(); ++i) {
    const char c = cleaned[i];
    if (c == ':') return scheme;
    const bool alpha = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
    const bool other = (c >= '0' && c <= '9') || c == '+' || c == '-' || c == '.';
    if (!(alpha || (other && !scheme.empty()))) return "";
    scheme.push_back(static_cast<char>(c >= 'A' && c <= 'Z' ? c + 32 : c));
  }
  return "";
}

// The WHATWG URL API's getters, computed from HttpUrl's OkHttp-style API.
std::map<std::string, std::string> whatwgGetters(const HttpUrl& url) {
  const std::string hostname =
      url.host().find(':') != std::string::npos ? "[" + url.host() + "]" : url.host();
  const std::string port =
      url.port() == HttpUrl::defaultPort(url.scheme()) ? "" : std::to_string(url.port());
  const std::optional<std::string> query = url.encodedQuery();
  const std::optional<std::string> fragment = url.encodedFragment();
  return {
      {"href", url.toString()},
      {"protocol", url.scheme() + ":"},
      {"username", url.encodedUsername()},
      {"password", url.encodedPassword()},
      {"host", port.empty() ? hostname : hostname + ":" + port},
      {"hostname", hostname},
      {"port", port},
      {"pathname", url.encodedPath()},
      {"search", query && !query->empty() ? "?" + *query : ""},
      {"hash", fragment && !fragment->empty() ? "#" + *fragment : ""},
  };
}

std::string quoted(const std::string& s) { return json(s).dump(); }

// A case identity in the deviations file: which data file, input, and base.
using CaseKey = std::tuple<std::string, std::string, std::string>;

struct Deviations {
  std::map<CaseKey, std::string> reasons;
  std::map<CaseKey, bool> seen;
};

Deviations loadDeviations() {
  Deviations deviations;
  std::istringstream lines(testing::readTestData("wpt-url-deviations.txt"));
  std::string line;
  while (std::getline(lines, line)) {
    if (line.empty() || line[0] == '#') continue;
    const json entry = json::parse(line);
    const std::string base =
        entry.contains("base") && !entry["base"].is_null() ? entry["base"].get<std::string>() : "";
    const CaseKey key{entry.at("file").get<std::string>(), entry.at("input").get<std::string>(),
                      base};
    deviations.reasons[key] = entry.at("reason").get<std::string>();
    deviations.seen[key] = false;
  }
  return deviations;
}

// Tallies one data file's cases and reports each unexpected outcome as a test failure.
class Tally {
 public:
  Tally(std::string file, Deviations& deviations)
      : file_(std::move(file)), deviations_(deviations) {}

  void record(const std::string& input, const std::string& base, const std::string& failure) {
    ++selected_;
    const CaseKey key{file_, input, base};
    const auto listed = deviations_.reasons.find(key);
    if (listed != deviations_.reasons.end()) {
      deviations_.seen[key] = true;
      if (failure.empty()) {
        ADD_FAILURE() << file_ << ": listed deviation now passes, remove it from "
                      << "wpt-url-deviations.txt: input " << quoted(input) << " base "
                      << quoted(base);
      } else {
        ++deviated_;
      }
      return;
    }
    if (failure.empty()) {
      ++passed_;
    } else {
      ADD_FAILURE() << file_ << ": input " << quoted(input) << " base " << quoted(base) << ": "
                    << failure;
    }
  }

  int selected() const { return selected_; }
  int passed() const { return passed_; }
  int deviated() const { return deviated_; }

 private:
  const std::string file_;
  Deviations& deviations_;
  int selected_ = 0;
  int passed_ = 0;
  int deviated_ = 0;
};

// Runs one urltestdata.json case; returns what went wrong, or "" if it passed.
std::string runUrlCase(const json& test) {
  const std::string input = test.at("input").get<std::string>();
  const bool hasBase = !test.at("base").is_null();
  const std::string base = hasBase ? test.at("base").get<std::string>() : "";
  std::optional<HttpUrl> result;
  if (hasBase && isHttpScheme(schemeOf(base))) {
    const std::optional<HttpUrl> baseUrl = HttpUrl::parse(base);
    if (!baseUrl) return "base did not parse";
    result = baseUrl->resolve(input);
  } else {
    // A base with another scheme can only matter for relative input, whose result would not be
    // an HttpUrl; absolute input parses the same with or without it.
    result = HttpUrl::parse(input);
  }
  if (test.value("failure", false)) {
    return result ? "expected failure but got " + quoted(result->toString()) : "";
  }
  if (!result) return "expected " + quoted(test.at("href").get<std::string>()) + " but failed";
  std::string problems;
  for (const auto& [name, actual] : whatwgGetters(*result)) {
    const std::string expected = test.at(name).get<std::string>();
    if (actual != expected) {
      problems += name + " was " + quoted(actual) + ", expected " + quoted(expected) + "; ";
    }
  }
  return problems;
}

// Runs one toascii.json case through the host parser: "https://" + input + "/x".
std::string runToAsciiCase(const json& test) {
  const std::string input = test.at("input").get<std::string>();
  const std::optional<HttpUrl> url = HttpUrl::parse("https://" + input + "/x");
  if (test.at("output").is_null()) {
    return url ? "expected failure but got host " + quoted(url->host()) : "";
  }
  const std::string expected = test.at("output").get<std::string>();
  if (!url) return "expected " + quoted(expected) + " but failed";
  if (url->host() != expected || url->encodedPath() != "/x") {
    return "host was " + quoted(url->host()) + " path " + quoted(url->encodedPath()) +
           ", expected " + quoted(expected);
  }
  return "";
}

void report(const char* what, const Tally& tally) {
  std::cout << what << ": " << tally.passed() << "/" << tally.selected() << " passed, "
            << tally.deviated() << " listed deviations" << std::endl;
}

TEST(WptUrlConformanceTest, UrlTestDataAndToAscii) {
  Deviations deviations = loadDeviations();

  Tally urls("urltestdata.json", deviations);
  for (const json& test : json::parse(testing::readTestData("urltestdata.json"))) {
    if (!test.is_object()) continue;  // Comments.
    const std::string input = test.at("input").get<std::string>();
    const bool hasBase = !test.at("base").is_null();
    const std::string base = hasBase ? test.at("base").get<std::string>() : "";
    bool selected;
    if (test.value("failure", false)) {
      selected = isHttpScheme(schemeOf(hasBase ? base : input)) || isHttpScheme(schemeOf(input));
    } else {
      selected = isHttpScheme(schemeOf(test.at("href").get<std::string>()));
    }
    if (selected) urls.record(input, base, runUrlCase(test));
  }

  Tally hosts("toascii.json", deviations);
  for (const json& test : json::parse(testing::readTestData("toascii.json"))) {
    if (!test.is_object()) continue;
    hosts.record(test.at("input").get<std::string>(), "", runToAsciiCase(test));
  }

  for (const auto& [key, seen] : deviations.seen) {
    EXPECT_TRUE(seen) << "wpt-url-deviations.txt lists a case that is not run: " << std::get<0>(key)
                      << " input " << quoted(std::get<1>(key));
  }

  report("WHATWG URL conformance (urltestdata.json)", urls);
  report("WHATWG URL conformance (toascii.json)", hosts);
  const int selected = urls.selected() + hosts.selected();
  const int deviated = urls.deviated() + hosts.deviated();
  std::cout << "WHATWG URL conformance: " << urls.passed() + hosts.passed() << "/" << selected
            << " passed, " << deviated << " listed deviations" << std::endl;
  EXPECT_GT(selected, 500);  // The data really was read and selected.
  EXPECT_LT(deviated, kMaxDeviationRatio * selected)
      << "deviations must stay under 2% of the conformance cases";
}

}  // namespace
}  // namespace tern
