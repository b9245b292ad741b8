// toml++, included with its debug assertions off in every build. Some malformed input (a
// lone "[" and a newline) trips an assertion inside its parser in Debug builds, while the
// same parser, assertion-free as in Release, reports it as a syntax error. Every file that
// uses toml++ includes this header, so all see the same definitions.
#pragma once
#ifndef TOML_ASSERT
#define TOML_ASSERT(expr) static_assert(true)
#endif
#include <toml++/toml.h>
