// toml++ 3.3 as icnsim builds it, in every file that uses it (so all see the same macros).
//  - Its debug assertions are off in every build: some malformed input (a lone "[" and a
//    newline) trips one inside its parser in Debug builds, while the same parser,
//    assertion-free as in a gcc Release build, reports it as a syntax error.
//  - Its is_non_ascii_horizontal_whitespace() is undefined behaviour for most non-ASCII
//    characters (it reaches __builtin_unreachable, e.g. for a "§" where whitespace may
//    stand; found by fuzz/config_fuzzer.cc). checkTomlText() rejects such text before the
//    parser sees it; every parse goes through ConfigDocument, which calls it.
#pragma once
#include <string_view>

#ifndef TOML_ASSERT
#define TOML_ASSERT(expr) static_assert(true)
#endif
// With NDEBUG, toml++ turns the same checks into optimiser assumptions (__builtin_assume
// under clang), which that input would break: they are no-ops here too, as under gcc.
#include <toml++/impl/preprocessor.h>
#undef TOML_ASSERT_ASSUME
#define TOML_ASSERT_ASSUME(expr) static_assert(true)
#include <string>
#include <string_view>

#include <toml++/toml.h>

namespace icnsim {

// Throws ConfigError ("name:line:column: ...") if `text` has a non-ASCII character outside a
// string or comment (never valid TOML 1.0), or right after the whitespace of a line-ending
// backslash in a multi-line string, where toml++ 3.3 would test it as whitespace.
void checkTomlText(std::string_view text, std::string_view name);

// A value as a TOML literal that reads back as the same value: floats keep every digit they
// need, strings are escaped, arrays and tables are written inline.
std::string tomlValueText(const toml::node& n);

// "a string", "an integer", ...: a value's type as an error message names it.
std::string tomlTypeName(const toml::node& n);

}  // namespace icnsim
