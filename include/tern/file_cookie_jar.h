// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "tern/cookie.h"
#include "tern/export.h"
#include "tern/in_memory_cookie_jar.h"

namespace tern {

// An InMemoryCookieJar kept in a file in the Netscape cookie-file format, the one curl reads
// with `-b FILE` and writes with `-c FILE` (and wget, Python's MozillaCookieJar, yt-dlp): a jar
// tern and curl can share.
//
//   auto jar = std::make_shared<tern::FileCookieJar>("cookies.txt");  // Loads it, if it exists.
//   tern::Client client = tern::Client::Builder().cookieJar(jar).build();
//   ...
//   jar->save();  // Or Options::saveOnDestruction.
//
// One line a cookie, seven fields separated by tabs (comment lines start with '#'):
//   .example.com  TRUE  /  FALSE  1767225600  name  value
// the domain (a leading dot for a domain cookie), TRUE if subdomains get it too, the path, TRUE
// if it is Secure, when it expires in seconds since the epoch (0: a session cookie), the name and
// the value; a domain prefixed "#HttpOnly_" is an HttpOnly cookie. SameSite is not in the
// format, so a saved and loaded cookie has none, as in curl.
//
// Session cookies stay in memory and are saved with expiry 0, as curl does; loading keeps them
// unless Options::junkSessionCookies (curl's -j). Saving is atomic: the file is written beside
// the old one under a temporary name, flushed to disk and renamed over it, so a crash leaves the
// old file or the new one, never half of one. Thread-safe.
class TERN_API FileCookieJar final : public InMemoryCookieJar {
 public:
  struct Options {
    bool junkSessionCookies = false;  // Drop the file's session cookies on load.
    bool saveOnDestruction = false;   // save() in the destructor (errors ignored there).
    Limits limits;
    Clock clock;  // Empty: the system clock.
  };

  // A jar kept in `path`: loads it now if it exists (a missing file is an empty jar). Throws
  // IOException naming the path if it exists but cannot be read. Lines that are not cookies are
  // skipped, as curl does.
  explicit FileCookieJar(std::filesystem::path path);
  FileCookieJar(std::filesystem::path path, Options options);
  // With Options::saveOnDestruction, saves; a failure then is lost (call save() to see it).
  ~FileCookieJar() override;

  const std::filesystem::path& path() const noexcept { return path_; }

  // Writes every unexpired cookie to path(), atomically. Throws IOException naming the file and
  // the reason (a missing or unwritable directory, a full disk); the old file is then intact.
  void save();

  // save(), to another file (curl's -c beside -b).
  void saveTo(const std::filesystem::path& path);

  // Adds the cookies of the file `path` (as the constructor does). Throws IOException if it
  // exists and cannot be read.
  void load(const std::filesystem::path& path);

  // The cookies in the text of a cookie file, in file order; lines that are not cookies are
  // skipped. With `junkSessionCookies`, session cookies (expiry 0) are left out. Expired ones are
  // kept (the jar drops them).
  static std::vector<Cookie> parse(std::string_view text, bool junkSessionCookies = false);

  // A cookie file holding `cookies`, with curl's header comment. Cookies that the format cannot
  // hold (a tab in the value) are left out.
  static std::string format(const std::vector<Cookie>& cookies);

  // Writes format(cookies) to `path` atomically (see save()). Throws IOException naming the file.
  static void writeFile(const std::filesystem::path& path, const std::vector<Cookie>& cookies);

  // The cookies of the file `path`, as parse() reads them; none if it does not exist. Throws
  // IOException naming the file if it exists and cannot be read.
  static std::vector<Cookie> readFile(const std::filesystem::path& path,
                                      bool junkSessionCookies = false);

 private:
  std::filesystem::path path_;
  bool junkSessionCookies_;
  bool saveOnDestruction_;
};

}  // namespace tern
