#include "models/common/hook.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace gbesim {
namespace {

// An event-like aggregate that counts how often one is built.
struct Probe {
  static inline int built = 0;
  int kind = 0;
  std::string detail;
  Probe(int k, std::string d) : kind(k), detail(std::move(d)) { ++built; }
};

TEST(Hook, EmitBuildsItsArgumentOnlyWhenSomeoneListens) {
  Probe::built = 0;
  Hook<const Probe&> hook;
  hook.emit(1, "unheard");
  EXPECT_EQ(Probe::built, 0);  // an unconnected hook costs one branch, nothing built
  std::vector<std::string> heard;
  hook.connect([&](const Probe& p) { heard.push_back(std::to_string(p.kind) + p.detail); });
  hook.connect([&](const Probe& p) { heard.push_back(p.detail); });
  hook.emit(2, "once");
  EXPECT_EQ(Probe::built, 1);  // built once, seen by both observers in the order they connected
  EXPECT_EQ(heard, (std::vector<std::string>{"2once", "once"}));
  hook(Probe{3, "call"});
  EXPECT_EQ(heard.back(), "call");
}

}  // namespace
}  // namespace gbesim
