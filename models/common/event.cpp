#include "models/common/event.hpp"

namespace gbesim {

std::string_view to_string(EventKind kind) {
  switch (kind) {
    case EventKind::enqueue:
      return "enqueue";
    case EventKind::drop:
      return "drop";
    case EventKind::tx_start:
      return "tx_start";
    case EventKind::tx_end:
      return "tx_end";
    case EventKind::rx_ok:
      return "rx_ok";
    case EventKind::rx_drop:
      return "rx_drop";
    case EventKind::pause_tx:
      return "pause_tx";
    case EventKind::pause_rx:
      return "pause_rx";
    case EventKind::deliver:
      return "deliver";
    case EventKind::collision:
      return "collision";
    case EventKind::late_collision:
      return "late_collision";
    case EventKind::jam_end:
      return "jam_end";
    case EventKind::backoff:
      return "backoff";
    case EventKind::burst_start:
      return "burst_start";
    case EventKind::burst_end:
      return "burst_end";
  }
  return "unknown";
}

}  // namespace gbesim
