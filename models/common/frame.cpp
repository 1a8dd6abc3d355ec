#include "models/common/frame.hpp"

#include <algorithm>
#include <array>
#include <cstring>

#include "models/common/crc32.hpp"
#include "models/common/speed_modes.hpp"

namespace gbesim {

std::size_t header_bytes(const FrameHeader& header) {
  return kHeaderBytes + (header.vlan_tci ? kQTagBytes : 0);
}

std::size_t min_client_data_bytes(const FrameHeader& header) {
  return kMinFrameBytes - kFcsBytes - header_bytes(header);
}

std::size_t client_bytes_for_frame_size(const FrameHeader& header, std::size_t frame_bytes) {
  return frame_bytes - kFcsBytes - header_bytes(header);
}

void build_frame(Frame& frame, const FrameHeader& header, std::size_t client_bytes,
                 std::uint64_t sequence) {
  const std::size_t data_bytes = std::max(client_bytes, min_client_data_bytes(header));
  const std::size_t head = header_bytes(header);
  auto& b = frame.bytes;
  b.resize(head + data_bytes + kFcsBytes);
  std::copy(header.destination.octets.begin(), header.destination.octets.end(), b.begin());
  std::copy(header.source.octets.begin(), header.source.octets.end(), b.begin() + 6);
  std::size_t at = 12;
  if (header.vlan_tci) {
    b[at++] = kEtherTypeVlan >> 8;
    b[at++] = kEtherTypeVlan & 0xFF;
    b[at++] = static_cast<std::uint8_t>(*header.vlan_tci >> 8);
    b[at++] = static_cast<std::uint8_t>(*header.vlan_tci & 0xFF);
  }
  b[at++] = static_cast<std::uint8_t>(header.length_type >> 8);
  b[at++] = static_cast<std::uint8_t>(header.length_type & 0xFF);
  // Client data: the sequence number (big-endian, as much of it as fits), then byte i = i mod 256.
  static const std::array<std::uint8_t, 256> kPattern = [] {
    std::array<std::uint8_t, 256> p{};
    for (std::size_t i = 0; i < p.size(); ++i) p[i] = static_cast<std::uint8_t>(i);
    return p;
  }();
  std::uint8_t* data = b.data() + at;
  for (std::size_t i = 0; i < client_bytes && i < 8; ++i)
    data[i] = static_cast<std::uint8_t>(sequence >> (56 - 8 * i));
  for (std::size_t i = 8; i < client_bytes;) {
    const std::size_t run = std::min(client_bytes - i, kPattern.size() - i % kPattern.size());
    std::memcpy(data + i, kPattern.data() + i % kPattern.size(), run);
    i += run;
  }
  if (data_bytes > client_bytes) std::memset(data + client_bytes, 0, data_bytes - client_bytes);
  write_fcs(b.data(), b.size() - kFcsBytes);
}

void FrameRecycler::operator()(Frame* frame) const {
  if (pool != nullptr) {
    pool->release(frame);
  } else {
    delete frame;
  }
}

FramePool::~FramePool() {
  for (Frame* f : free_) delete f;
}

FramePtr FramePool::acquire() {
  Frame* f;
  if (free_.empty()) {
    f = new Frame;
    ++allocated_;
  } else {
    f = free_.back();
    free_.pop_back();
  }
  ++created_;
  f->id = 0;
  f->queued_ps = 0;
  f->flow = 0;  // bytes keep their old contents and capacity; builders overwrite them
  return FramePtr(f, FrameRecycler{this});
}

}  // namespace gbesim
