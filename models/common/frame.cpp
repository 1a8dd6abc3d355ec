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

const std::uint8_t* counting_pattern() {
  static const std::array<std::uint8_t, 2 * kCountingPeriod> bytes = [] {
    std::array<std::uint8_t, 2 * kCountingPeriod> b{};
    for (std::size_t i = 0; i < b.size(); ++i) b[i] = static_cast<std::uint8_t>(i);
    return b;
  }();
  return bytes.data();
}

void fill_counting_pattern(std::uint8_t* data, std::size_t length, std::uint8_t first) {
  const std::uint8_t* period = counting_pattern() + first;
  for (std::size_t i = 0; i < length; i += kCountingPeriod)
    std::memcpy(data + i, period, std::min(kCountingPeriod, length - i));
}

namespace {

// Header and client data (pattern, sequence, pad); the FCS bytes are left for the caller.
void write_body(Frame& frame, const FrameHeader& header, std::size_t client_bytes,
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
  std::uint8_t* data = b.data() + at;
  const std::size_t pattern_bytes = client_bytes > 8 ? client_bytes - 8 : 0;
  fill_counting_pattern(data, pattern_bytes, 0);
  for (std::size_t i = pattern_bytes; i < client_bytes; ++i)
    data[i] = static_cast<std::uint8_t>(sequence >> (8 * (client_bytes - 1 - i)));
  if (data_bytes > client_bytes) std::memset(data + client_bytes, 0, data_bytes - client_bytes);
}

void store_fcs(std::uint8_t* at, std::uint32_t fcs) {
  for (int i = 0; i < 4; ++i) at[i] = static_cast<std::uint8_t>(fcs >> (8 * i));
}

}  // namespace

void build_frame(Frame& frame, const FrameHeader& header, std::size_t client_bytes,
                 std::uint64_t sequence) {
  write_body(frame, header, client_bytes, sequence);
  write_fcs(frame.bytes.data(), frame.bytes.size() - kFcsBytes);
  frame.fcs_intact = true;
}

void FrameBuilder::build(Frame& frame, std::size_t client_bytes, std::uint64_t sequence) {
  if (client_bytes < std::max<std::size_t>(8, min_client_data_bytes(header_))) {
    build_frame(frame, header_, client_bytes, sequence);
    return;
  }
  const Template* t = find_template(client_bytes);
  std::uint32_t template_register;
  if (t != nullptr) {
    frame.bytes.resize(t->bytes.size());
    std::memcpy(frame.bytes.data(), t->bytes.data(), t->bytes.size());
    template_register = t->crc_register;
  } else {
    write_body(frame, header_, client_bytes, 0);
    template_register = ~crc32(frame.bytes.data(), frame.bytes.size() - kFcsBytes);
  }
  const std::size_t body = frame.bytes.size() - kFcsBytes;
  std::uint8_t* seq = frame.bytes.data() + body - 8;
  for (int i = 0; i < 8; ++i) seq[i] = static_cast<std::uint8_t>(sequence >> (56 - 8 * i));
  const std::uint32_t reg = template_register ^ crc32_register_update(0, seq, 8);
  store_fcs(frame.bytes.data() + body, ~reg);
  frame.fcs_intact = true;
}

const FrameBuilder::Template* FrameBuilder::find_template(std::size_t client_bytes) {
  if (last_ < templates_.size() && templates_[last_].client_bytes == client_bytes)
    return &templates_[last_];
  for (std::size_t i = 0; i < templates_.size(); ++i) {
    if (templates_[i].client_bytes != client_bytes) continue;
    last_ = i;
    return &templates_[i];
  }
  if (templates_.size() >= kMaxTemplates) return nullptr;  // many sizes: build each one in full
  Frame scratch;
  write_body(scratch, header_, client_bytes, 0);
  const std::uint32_t reg = ~crc32(scratch.bytes.data(), scratch.bytes.size() - kFcsBytes);
  templates_.push_back({client_bytes, std::move(scratch.bytes), reg});
  last_ = templates_.size() - 1;
  return &templates_[last_];
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

FramePtr FramePool::copy(const Frame& frame) {
  FramePtr out = acquire();
  out->id = frame.id;
  out->queued_ps = frame.queued_ps;
  out->flow = frame.flow;
  out->hops = frame.hops;
  out->bytes = frame.bytes;
  out->fcs_intact = frame.fcs_intact;
  return out;
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
  f->hops = 0;
  f->flow = 0;  // bytes keep their old contents and capacity; builders overwrite them
  f->fcs_intact = false;
  return FramePtr(f, FrameRecycler{this});
}

}  // namespace gbesim
