// Registration by name for every pluggable kind (topology, routing, arbitration, traffic
// pattern, ...). A variant registers itself on the last line of its own .cc:
//   ICNSIM_REGISTER(Topology, "mesh", "k-ary n-mesh (keys k, n)", makeMesh);
// so adding a variant never edits a central list. An unknown name is a ConfigError that
// lists the registered names. The one-line description and the registering file are what
// `icnsim keys` and the generated registry lists show.
#pragma once
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <typeinfo>
#include <vector>

#include "common/error.h"
#include "config/key.h"

namespace icnsim {

class ConfigNode;

// The context a kind of part is built with: its base class's `Context` (each layer defines
// its own: topology/topology.h, routing/routing.h, router/network_context.h, nic/nic_context.h,
// traffic/traffic_context.h, analytic/analytic_model.h), or a specialisation.
template <typename Base>
struct ContextOf {
  using type = typename Base::Context;
};

template <typename Base>
class Registry {
 public:
  using Context = typename ContextOf<Base>::type;
  using Factory = std::function<std::unique_ptr<Base>(const Context&, const ConfigNode&)>;

  static Registry& instance() {
    static Registry registry;
    return registry;
  }
  bool add(const std::string& name, const char* doc, const char* file, Factory factory) {
    std::string path = file;  // from the source root: src/... (tests/... for a test's own part)
    for (const char* root : {"/src/", "/tests/"}) {
      if (auto at = path.rfind(root); at != std::string::npos) path = path.substr(at + 1);
    }
    parts_[name] = Part{std::move(factory), PartEntry{name, doc, path}};
    return true;
  }
  std::vector<PartEntry> entries() const {
    std::vector<PartEntry> out;
    for (const auto& [name, part] : parts_) out.push_back(part.entry);
    return out;
  }
  bool contains(const std::string& name) const { return parts_.count(name) != 0; }
  std::vector<std::string> names() const {
    std::vector<std::string> out;
    for (const auto& [name, part] : parts_) out.push_back(name);
    return out;
  }
  // `where` names the key for error messages, e.g. "topology.type".
  std::unique_ptr<Base> create(const std::string& name, const Context& ctx, const ConfigNode& node,
                               const std::string& where) const;
  // Fails as create() would if `key` of `node` (a name, or a list of names) names no
  // registered variant: checked before anything is built, so a misspelt name costs no
  // build time on a large network.
  void checkNames(const ConfigNode& node, const std::string& key) const;

 private:
  struct Part {
    Factory factory;
    PartEntry entry;
  };
  std::map<std::string, Part> parts_;  // ordered: error messages list names stably
};

// The key that names a part of this registry ("routing.type"): its reference lists the
// registered names with their descriptions.
template <typename Base>
PartRegistry partRegistry() {
  return {typeid(Base).name(), [] { return Registry<Base>::instance().entries(); }};
}
template <typename Base>
StringKey declarePartKey(KeyScope scope, const char* name, const char* def, const char* doc) {
  return declarePart(scope, name, def, doc, partRegistry<Base>());
}
template <typename Base>
StringKey declarePartKey(KeyScope scope, const char* name, DefaultText def, const char* doc) {
  return declarePart(scope, name, def, doc, partRegistry<Base>());
}
template <typename Base>
StringListKey declarePartListKey(KeyScope scope, const char* name, std::vector<std::string> def, const char* doc) {
  return declarePartList(scope, name, std::move(def), doc, partRegistry<Base>());
}

#define ICNSIM_CONCAT_INNER(a, b) a##b
#define ICNSIM_CONCAT(a, b) ICNSIM_CONCAT_INNER(a, b)
#define ICNSIM_REGISTER(Base, name, doc, ...)                                         \
  static const bool ICNSIM_CONCAT(icnsim_registered_, __COUNTER__) [[maybe_unused]] = \
      ::icnsim::Registry<Base>::instance().add(name, doc, __FILE__, __VA_ARGS__)

}  // namespace icnsim

#include "config/config.h"
#include "config/foreign_names.h"
#include "config/spelling.h"

namespace icnsim {
template <typename Base>
std::unique_ptr<Base> Registry<Base>::create(const std::string& name, const Context& ctx, const ConfigNode& node,
                                             const std::string& where) const {
  auto it = parts_.find(name);
  if (it == parts_.end()) checkNames(node, where);  // throws, naming the registered ones
  if (it == parts_.end()) throw ConfigError(node.location(where) + ": unknown name \"" + name + "\"");
  node.markPartStarted();
  if (recordingKeyReads()) builtParts().push_back(std::string(typeid(Base).name()) + "/" + name);
  return it->second.factory(ctx, node);
}

template <typename Base>
void Registry<Base>::checkNames(const ConfigNode& node, const std::string& key) const {
  if (!node.has(key)) return;
  for (const std::string& name : node.getStringList(key, {})) {
    if (contains(name)) continue;
    std::string list;
    for (const auto& n : names()) list += (list.empty() ? "" : ", ") + ("\"" + n + "\"");
    const std::string foreign = foreignPartHint(node.keyPath(key), name);
    const std::string hint = foreign.empty() ? "did you mean \"" + nearest(name, names()) + "\"?" : foreign;
    throw ConfigError(node.location(key) + ": unknown name \"" + name + "\"; registered: " + list + " (" + hint + ")");
  }
}
}  // namespace icnsim
