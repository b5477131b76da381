// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "waterfall.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <optional>
#include <stdexcept>
#include <string_view>

namespace tern::tool {
namespace {

// The phases drawn, in legend order: (class, label, colour, start event, end events).
struct Phase {
  std::string_view cssClass;
  std::string_view label;
  std::string_view colour;
  std::string_view start;
  std::array<std::string_view, 4> ends;
};

constexpr std::array<Phase, 6> kPhases{{
    {"queued", "Queued", "#b0b0b0", "dispatcherQueueStart", {"dispatcherQueueEnd"}},
    {"dns", "DNS", "#2a9d8f", "dnsStart", {"dnsEnd", "retryDecision", "callFailed"}},
    {"connect",
     "Connect",
     "#f4a261",
     "connectStart",
     {"secureConnectStart", "connectEnd", "connectFailed"}},
    {"tls", "TLS", "#9b5de5", "secureConnectStart", {"secureConnectEnd", "connectFailed"}},
    {"waiting",
     "Waiting",
     "#52b788",
     "requestHeadersStart",
     {"responseHeadersStart", "requestFailed", "responseFailed"}},
    {"download",
     "Download",
     "#3a86ff",
     "responseHeadersStart",
     {"responseBodyEnd", "responseFailed", "callEnd", "callFailed"}},
}};

constexpr double kLabelWidth = 340;
constexpr double kChartWidth = 620;
constexpr double kRightMargin = 40;
constexpr double kAxisHeight = 36;
constexpr double kRowHeight = 26;
constexpr double kBarHeight = 14;
constexpr double kLegendHeight = 40;

std::string escape(std::string_view text) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&apos;";
        break;
      default:
        // XML 1.0 forbids most control characters even when escaped.
        if (static_cast<unsigned char>(c) >= 0x20 || c == '\t') out += c;
    }
  }
  return out;
}

std::string number(double value) {
  char text[32];
  std::snprintf(text, sizeof(text), "%.1f", value);
  return text;
}

std::string milliseconds(double ms) {
  if (ms == 0) return "0 ms";
  char text[32];
  std::snprintf(text, sizeof(text), ms < 10 ? "%.2f ms" : "%.0f ms", ms);
  return text;
}

// A tick spacing of 1, 2 or 5 times a power of ten that gives about six ticks over `total`.
double tickStep(double total) {
  double rough = std::max(total / 6, 1e-3);
  double power = std::pow(10, std::floor(std::log10(rough)));
  for (double step : {1.0, 2.0, 5.0, 10.0}) {
    if (step * power >= rough) return step * power;
  }
  return 10 * power;
}

struct Segment {
  const Phase* phase;
  double fromMs;
  double toMs;
};

// The phases of `trace` as time spans, in milliseconds since `origin`. A start without an end
// (a call still running when the run ended) is left out.
std::vector<Segment> segments(const CallTrace& trace, Clock::time_point origin) {
  std::vector<Segment> result;
  std::array<std::optional<double>, kPhases.size()> open;
  for (const TraceEvent& event : trace.events) {
    double ms = std::chrono::duration<double, std::milli>(event.at - origin).count();
    for (size_t i = 0; i < kPhases.size(); ++i) {
      const Phase& phase = kPhases[i];
      if (open[i] &&
          std::find(phase.ends.begin(), phase.ends.end(), event.name) != phase.ends.end()) {
        result.push_back({&phase, *open[i], ms});
        open[i].reset();
      }
      if (event.name == phase.start && !open[i]) open[i] = ms;
    }
  }
  return result;
}

}  // namespace

void writeWaterfall(const std::vector<std::shared_ptr<const CallTrace>>& traces,
                    std::ostream& out) {
  Clock::time_point origin{};
  double endMs = 0;
  bool first = true;
  for (const auto& trace : traces) {
    if (trace->events.empty()) continue;
    if (first || trace->events.front().at < origin) origin = trace->events.front().at;
    first = false;
  }
  for (const auto& trace : traces) {
    if (trace->events.empty()) continue;
    endMs = std::max(
        endMs, std::chrono::duration<double, std::milli>(trace->events.back().at - origin).count());
  }
  double step = tickStep(endMs);
  double axisMs = std::max(step, std::ceil(endMs / step) * step);
  double scale = kChartWidth / axisMs;
  double width = kLabelWidth + kChartWidth + kRightMargin;
  double height = kAxisHeight + kRowHeight * static_cast<double>(traces.size()) + kLegendHeight;
  auto x = [&](double ms) { return number(kLabelWidth + ms * scale); };

  out << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << number(width) << "\" height=\""
      << number(height) << "\" viewBox=\"0 0 " << number(width) << " " << number(height)
      << "\" font-family=\"sans-serif\" font-size=\"12\">\n"
      << "<title>tern: " << traces.size() << " call" << (traces.size() == 1 ? "" : "s")
      << "</title>\n"
      << "<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n";

  // The time axis: ticks and grid lines across every row.
  out << "<g class=\"axis\">\n";
  double gridBottom = kAxisHeight + kRowHeight * static_cast<double>(traces.size());
  for (double tick = 0; tick <= axisMs + step / 2; tick += step) {
    out << "<line x1=\"" << x(tick) << "\" y1=\"" << number(kAxisHeight - 6) << "\" x2=\""
        << x(tick) << "\" y2=\"" << number(gridBottom) << "\" stroke=\"#e0e0e0\"/>\n"
        << "<text x=\"" << x(tick) << "\" y=\"" << number(kAxisHeight - 10)
        << "\" text-anchor=\"middle\" fill=\"#555555\">" << escape(milliseconds(tick))
        << "</text>\n";
  }
  out << "</g>\n";

  for (size_t row = 0; row < traces.size(); ++row) {
    const CallTrace& trace = *traces[row];
    double top = kAxisHeight + kRowHeight * static_cast<double>(row);
    double barTop = top + (kRowHeight - kBarHeight) / 2;
    bool reused = trace.reusedConnection();
    bool failed = trace.failed();
    out << "<g class=\"row" << (reused ? " reused" : "") << (failed ? " failed" : "")
        << "\" data-call=\"" << trace.index << "\">\n"
        << "<title>#" << trace.index << " " << escape(trace.url) << "</title>\n"
        << "<text x=\"6\" y=\"" << number(top + kRowHeight / 2 + 4) << "\" fill=\""
        << (failed ? "#c1121f" : "#222222") << "\">#" << trace.index << " "
        << escape(trace.url.size() > 44 ? trace.url.substr(0, 41) + "..." : trace.url)
        << (reused ? " (reused)" : "") << (failed ? " (failed)" : "") << "</text>\n";
    if (!trace.events.empty()) {
      double from =
          std::chrono::duration<double, std::milli>(trace.events.front().at - origin).count();
      double to =
          std::chrono::duration<double, std::milli>(trace.events.back().at - origin).count();
      out << "<line class=\"call\" x1=\"" << x(from) << "\" y1=\"" << number(top + kRowHeight / 2)
          << "\" x2=\"" << x(to) << "\" y2=\"" << number(top + kRowHeight / 2)
          << "\" stroke=\"#999999\"/>\n";
    }
    for (const Segment& segment : segments(trace, origin)) {
      double w = std::max(1.0, (segment.toMs - segment.fromMs) * scale);
      out << "<rect class=\"" << segment.phase->cssClass << "\" x=\"" << x(segment.fromMs)
          << "\" y=\"" << number(barTop) << "\" width=\"" << number(w) << "\" height=\""
          << number(kBarHeight) << "\" fill=\"" << segment.phase->colour << "\"><title>"
          << segment.phase->label << ": " << escape(milliseconds(segment.toMs - segment.fromMs))
          << "</title></rect>\n";
    }
    if (reused) {
      for (const TraceEvent& event : trace.events) {
        if (event.name != "connectionAcquired") continue;
        double ms = std::chrono::duration<double, std::milli>(event.at - origin).count();
        out << "<circle class=\"reused-marker\" cx=\"" << x(ms) << "\" cy=\""
            << number(top + kRowHeight / 2) << "\" r=\"4\" fill=\"none\" stroke=\"#222222\">"
            << "<title>reused connection</title></circle>\n";
        break;
      }
    }
    out << "</g>\n";
  }

  // The legend.
  out << "<g class=\"legend\">\n";
  double legendY = gridBottom + 16;
  double legendX = 6;
  for (const Phase& phase : kPhases) {
    out << "<rect x=\"" << number(legendX) << "\" y=\"" << number(legendY) << "\" width=\"12\""
        << " height=\"12\" fill=\"" << phase.colour << "\"/>\n"
        << "<text x=\"" << number(legendX + 16) << "\" y=\"" << number(legendY + 10) << "\">"
        << phase.label << "</text>\n";
    legendX += 96;
  }
  out << "<circle cx=\"" << number(legendX + 6) << "\" cy=\"" << number(legendY + 6)
      << "\" r=\"4\" fill=\"none\" stroke=\"#222222\"/>\n"
      << "<text x=\"" << number(legendX + 16) << "\" y=\"" << number(legendY + 10)
      << "\">Reused connection</text>\n"
      << "</g>\n"
      << "</svg>\n";
}

void writeWaterfallFile(const std::vector<std::shared_ptr<const CallTrace>>& traces,
                        const std::string& path) {
  std::ofstream file(path, std::ios::binary | std::ios::trunc);
  if (file) writeWaterfall(traces, file);
  file.close();
  if (!file) throw std::runtime_error("Failed to write the waterfall to " + path);
}

}  // namespace tern::tool
