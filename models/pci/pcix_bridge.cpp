#include "models/pci/pcix_bridge.hpp"

#include <algorithm>
#include <stdexcept>

namespace gbesim {

namespace {

PciBus& pcix_bus(PciBusModule& module, const std::string& bridge) {
  auto* bus = dynamic_cast<PciBus*>(&module.bus());
  if (bus == nullptr || bus->params().mode != PciMode::pcix)
    throw std::logic_error(bridge + ": a PCI-X-to-PCI-X bridge joins two PCI-X segments");
  return *bus;
}

}  // namespace

// One direction: the targets it shows on its near segment, the master it drives on the far one.
class PciXBridge::Port : public PciForwarder, public PciMasterClient {
 public:
  Port(PciBusModule& near, PciBusModule& far, const std::string& name,
       const PciBridgeParams& params, bool done_on_delivery)
      : near_module_(near),
        far_module_(far),
        near_(pcix_bus(near, name)),
        far_(pcix_bus(far, name)),
        params_(params),
        done_on_delivery_(done_on_delivery),
        latency_ps_(params.latency_ns * 1000) {
    PciMasterParams m;
    m.width_bits = far_.params().width_bits;
    // A read buffer each request it forwards; a request is one sequence on the far side.
    m.max_outstanding_splits =
        std::max<std::int64_t>(1, params.read_buffer_bytes / params.read_request_bytes);
    m.mmrbc_bytes = 4096;
    master_ = far_.add_master(name, m, this);
  }

  // A target on the near segment whose requests go to far_target.
  std::size_t face(const std::string& name, std::size_t far_target) {
    PciTargetParams t;
    t.split_read_bytes = 4096;  // it splits every read; the far side sizes the completions
    const std::size_t index = near_.add_target(name, t);
    near_.forward(index, this, params_.posted_write_bytes, done_on_delivery_);
    routes_[index] = far_target;
    return index;
  }

  void forward_read(std::size_t target, const PciSplitRead& read, Picoseconds at) override {
    Op op;
    op.read = true;
    op.target = target;
    op.split = read;
    op.tag = next_tag_++;
    ask_piece(ops_.emplace(op.tag, op).first->second, at);
  }

  void forward_write(std::size_t target, std::size_t master, const PciRequest& r,
                     std::uint64_t address, std::int64_t bytes, bool last, Picoseconds first_at,
                     Picoseconds all_at) override {
    // It goes on once its first ADB is in, but not so early that the far side, moving it at its
    // own rate, would overtake the bytes still arriving.
    const Picoseconds far_ps =
        (bytes + far_.width_bytes() - 1) / far_.width_bytes() * far_.period_ps();
    const Picoseconds at = std::max(first_at, all_at - far_ps);
    Op op;
    op.target = target;
    op.master = master;
    op.original = r;
    op.last = last;
    op.tag = next_tag_++;
    ops_.emplace(op.tag, op);
    ask(op.tag, r.command, address, bytes, r.frame_id, at);
  }

  bool follows_progress() const override { return true; }

  void pci_progress(const PciRequest& r, std::int64_t bytes, Picoseconds at) override {
    // The near segment first does what is due before now, so that what this changes there is
    // seen from after now, whichever segment's process the kernel runs first.
    near_module_.settle();
    Op& op = ops_.at(r.tag);
    if (op.read) {  // a completion back to the requester, as it arrives
      const std::uint64_t address = op.split.address + static_cast<std::uint64_t>(op.moved);
      op.moved += bytes;
      near_.complete_split(op.target, op.split, address, bytes, op.moved == op.split.bytes,
                           at + latency_ps_);
    } else {  // the far side has taken it: room in the posted-write buffer
      near_.release_posted(op.target, bytes);
    }
    near_module_.reschedule();
  }

  void pci_done(const PciRequest& r, Picoseconds at) override {
    near_module_.settle();
    const auto it = ops_.find(r.tag);
    if (it->second.read && it->second.asked < it->second.split.bytes) {
      ask_piece(it->second, at);  // the previous piece is all in: the next
      return;
    }
    const Op op = it->second;
    ops_.erase(it);
    if (!op.read && op.last && done_on_delivery_) near_.deliver_done(op.master, op.original, at);
  }

 private:
  struct Op {
    bool read = false;
    std::size_t target = 0;  // the near target that took it
    PciSplitRead split;      // a read
    std::int64_t asked = 0;  // its bytes asked for on the far side so far
    std::int64_t moved = 0;  // its bytes returned so far
    std::uint64_t tag = 0;
    std::size_t master = 0;  // a write: whose, and which request (the last piece of it?)
    PciRequest original;
    bool last = false;
  };

  // A read is asked for in pieces of read_request_bytes, each once the previous is all in.
  void ask_piece(Op& op, Picoseconds at) {
    const std::int64_t bytes = std::min(params_.read_request_bytes, op.split.bytes - op.asked);
    const std::uint64_t address = op.split.address + static_cast<std::uint64_t>(op.asked);
    op.asked += bytes;
    ask(op.tag, op.split.command, address, bytes, op.split.frame_id, at);
  }

  void ask(std::uint64_t tag, PciCommand command, std::uint64_t address, std::int64_t bytes,
           std::uint64_t frame_id, Picoseconds at) {
    PciRequest r;
    r.target = routes_.at(ops_.at(tag).target);
    r.command = command;
    r.address = address;
    r.bytes = bytes;
    r.tag = tag;
    r.frame_id = frame_id;
    far_module_.request_at(master_, r, at + latency_ps_);
  }

  PciBusModule& near_module_;
  PciBusModule& far_module_;
  PciBus& near_;
  PciBus& far_;
  PciBridgeParams params_;
  bool done_on_delivery_;
  Picoseconds latency_ps_;
  std::size_t master_ = 0;
  std::unordered_map<std::size_t, std::size_t> routes_;  // near target -> far target
  std::unordered_map<std::uint64_t, Op> ops_;            // by the far request's tag
  std::uint64_t next_tag_ = 1;
};

PciXBridge::PciXBridge(const std::string& name, const PciBridgeParams& params,
                       PciBusModule& primary, PciBusModule& secondary, std::size_t memory) {
  up_ = std::make_unique<Port>(secondary, primary, name + ".up", params, false);
  down_ = std::make_unique<Port>(primary, secondary, name + ".down", params, true);
  memory_ = up_->face(name, memory);
}

PciXBridge::~PciXBridge() = default;

std::size_t PciXBridge::expose(std::size_t secondary_target, const std::string& name) {
  return down_->face(name, secondary_target);
}

}  // namespace gbesim
