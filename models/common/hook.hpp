#pragma once
// A hook is how a model tells the world that something happened. Observers (in sim/, or tests)
// connect to it; a model never knows who listens. An unconnected hook costs one branch.

#include <functional>
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

 private:
  void notify_all(Args... args) const {
    for (const auto& observer : observers_) observer(args...);
  }

  std::vector<Observer> observers_;
};

}  // namespace gbesim
