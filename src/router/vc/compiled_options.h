// Router options the hot loops take as template arguments, so that a router without an option
// pays nothing per flit for it. withOptions(body, flags...) calls body with each runtime flag
// as a std::bool_constant, in order: the loops' options are listed once, where the loop is
// chosen (`leaveBuffers`, `decideMasked`, ...), and a new option is one more flag there and one
// more template parameter where it is tested, not another hand-written branch per variant.
#pragma once
#include <type_traits>

namespace icnsim::vc {

template <typename Body>
void withOptions(Body&& body) {
  body();
}

template <typename Body, typename... Rest>
void withOptions(Body&& body, bool flag, Rest... rest) {
  auto bind = [&](auto value) { withOptions([&](auto... more) { body(value, more...); }, rest...); };
  flag ? bind(std::true_type{}) : bind(std::false_type{});
}

}  // namespace icnsim::vc
