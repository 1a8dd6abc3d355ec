#pragma once
// A hook is how a model tells the world that something happened. Observers (in sim/, or tests)
// connect to it; a model never knows who listens. An unconnected hook costs one branch.

#include <functional>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

namespace gbesim {

template <class... Args>
class Hook {
 public:
  using Observer = std::function<void(Args...)>;

  void connect(Observer observer) { observers_.push_back(std::move(observer)); }
  bool connected() const { return !observers_.empty(); }

  void operator()(Args... args) const {
    if (observers_.empty()) return;
    notify_all(args...);
  }

  // A hook of one argument (a model's trace events): the argument built from `parts` only when
  // someone listens. Built at the call, an aggregate like Event costs its stores every time.
  template <class... Parts>
  void emit(Parts&&... parts) const {
    static_assert(sizeof...(Args) == 1, "emit builds the one argument of a hook");
    if (observers_.empty()) return;
    using Arg = std::decay_t<std::tuple_element_t<0, std::tuple<Args...>>>;
    notify_all(Arg{std::forward<Parts>(parts)...});
  }

 private:
  void notify_all(Args... args) const {
    for (const auto& observer : observers_) observer(args...);
  }

  std::vector<Observer> observers_;
};

}  // namespace gbesim
