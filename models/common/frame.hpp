#pragma once
// A MAC frame as real bytes, DA through FCS (IEEE 802.3 3.1.1): destination and source
// addresses, an optional 802.1Q tag, the length/type field, the MAC client data (padded to the
// 64-byte minimum) and the 4-byte FCS. Preamble, SFD and extension are line signalling, not
// frame bytes: the MAC and medium account for them in time only.

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <optional>
#include <vector>

#include "models/common/mac_address.hpp"
#include "models/common/time.hpp"

namespace gbesim {

inline constexpr std::uint16_t kEtherTypeVlan = 0x8100;
inline constexpr std::uint16_t kEtherTypeMacControl = 0x8808;
// IEEE 802 "local experimental" EtherType 1, used for generated traffic.
inline constexpr std::uint16_t kEtherTypeExperimental = 0x88B5;
inline constexpr std::size_t kHeaderBytes = 14;  // DA, SA, length/type
inline constexpr std::size_t kFcsBytes = 4;

// Frame ids are unique within a run and independent of the order in which same-instant processes
// run: creator x kFrameIdCreator + the creator's own sequence number, where the creator is the
// traffic source's flow number (1, 2, ...) or kControlCreatorBase + station number for the MAC
// Control frames a station's MAC makes.
inline constexpr std::uint64_t kFrameIdCreator = 1'000'000'000'000ULL;
inline constexpr std::uint64_t kControlCreatorBase = 1'000'000;
// The flow number of frames a host's stack or driver sends (traffic sources use 1, 2, ...).
inline constexpr std::uint32_t kHostFlow = 0xFFFF;

struct Frame {
  std::uint64_t id = 0;             // see kFrameIdCreator
  Picoseconds queued_ps = 0;        // when the frame entered its transmit queue
  std::uint32_t flow = 0;           // which traffic source made it; 0 for MAC control frames
  std::uint32_t hops = 0;           // switches it has passed (its queued_ps stays the source's)
  std::vector<std::uint8_t> bytes;  // DA..FCS
  // True while the bytes are exactly those the FCS was last written for: set where the FCS is
  // written (the frame builders), cleared by whatever changes a byte after that (bit errors, a
  // collision that damages the frame, a transmit underrun). The receiver's FCS check cannot fail
  // on such a frame, so it does not run the CRC (docs/mac.md, "Frames are bytes"); every other
  // frame, including any made or changed elsewhere, is checked in full.
  bool fcs_intact = false;

  std::size_t size() const { return bytes.size(); }
};

struct FrameHeader {
  MacAddress destination;
  MacAddress source;
  std::optional<std::uint16_t> vlan_tci;  // present: the frame carries an 802.1Q tag
  std::uint16_t length_type = kEtherTypeExperimental;
};

// Smallest and largest DA..FCS size a header allows before padding, for a given client data size.
std::size_t header_bytes(const FrameHeader& header);
std::size_t min_client_data_bytes(const FrameHeader& header);  // 46 untagged, 42 tagged

// Fills frame.bytes with header, client data of client_bytes (padded with zeros up to the
// minimum frame size) and a correct FCS. The client data is a counting pattern (byte i = i mod
// 256) ending with `sequence` (big-endian, its last 8 bytes, or as many as fit), so every frame
// is distinct.
void build_frame(Frame& frame, const FrameHeader& header, std::size_t client_bytes,
                 std::uint64_t sequence);

// Builds the same bytes as build_frame for one header, faster: frames of one size differ only in
// the 8 sequence bytes just before the FCS, and the CRC register is linear in the message, so a
// frame is a copy of its size's template (sequence 0, built once) with the sequence written in,
// and its FCS the template's CRC register XOR the register of the 8 sequence bytes alone. Up to
// kMaxTemplates sizes are kept; other sizes are built in full. Padded frames use build_frame.
class FrameBuilder {
 public:
  explicit FrameBuilder(FrameHeader header) : header_(std::move(header)) {}
  const FrameHeader& header() const { return header_; }
  void build(Frame& frame, std::size_t client_bytes, std::uint64_t sequence);

 private:
  struct Template {
    std::size_t client_bytes;
    std::vector<std::uint8_t> bytes;  // DA..FCS with sequence 0 (FCS bytes unset)
    std::uint32_t crc_register;       // over DA..data, before the final complement
  };
  static constexpr std::size_t kMaxTemplates = 64;
  const Template* find_template(std::size_t client_bytes);

  FrameHeader header_;
  std::vector<Template> templates_;
  std::size_t last_ = 0;
};

// The client data size that makes a DA..FCS frame of exactly frame_bytes (>= 64) with this header.
std::size_t client_bytes_for_frame_size(const FrameHeader& header, std::size_t frame_bytes);

// The counting pattern, byte i = i mod 256, twice over: the 256 bytes from offset `first` are one
// period of the pattern that starts at `first`. Built frames' client data and the host stack's
// payloads are made of it.
inline constexpr std::size_t kCountingPeriod = 256;
const std::uint8_t* counting_pattern();
// Writes `length` bytes of the pattern starting at `first`: byte i = (first + i) mod 256.
void fill_counting_pattern(std::uint8_t* data, std::size_t length, std::uint8_t first);

// Field access on received bytes; callers check size() >= 64 (the minimum frame) first.
inline MacAddress destination_of(const std::vector<std::uint8_t>& bytes) {
  MacAddress a;
  std::memcpy(a.octets.data(), bytes.data(), 6);
  return a;
}
inline MacAddress source_of(const std::vector<std::uint8_t>& bytes) {
  MacAddress a;
  std::memcpy(a.octets.data(), bytes.data() + 6, 6);
  return a;
}
inline bool is_vlan_tagged(const std::vector<std::uint8_t>& bytes) {
  return bytes[12] == (kEtherTypeVlan >> 8) && bytes[13] == (kEtherTypeVlan & 0xFF);
}
inline std::size_t client_data_offset(const std::vector<std::uint8_t>& bytes) {
  return is_vlan_tagged(bytes) ? kHeaderBytes + 4 : kHeaderBytes;
}
inline std::uint16_t length_type_of(const std::vector<std::uint8_t>& bytes) {
  const std::size_t at = client_data_offset(bytes) - 2;
  return static_cast<std::uint16_t>(bytes[at] << 8 | bytes[at + 1]);
}

// Frames are recycled through a pool so a long run allocates only as many frames as are ever
// alive at once. FramePtr returns its frame to the pool when it goes out of scope.
class FramePool;
struct FrameRecycler {
  FramePool* pool = nullptr;
  void operator()(Frame* frame) const;
};
using FramePtr = std::unique_ptr<Frame, FrameRecycler>;

class FramePool {
 public:
  FramePool() = default;
  FramePool(const FramePool&) = delete;
  FramePool& operator=(const FramePool&) = delete;
  ~FramePool();

  // A frame whose creator sets its id; its bytes are whatever an earlier use left (builders resize
  // and overwrite them, which avoids clearing buffers on every frame).
  FramePtr acquire();
  // A copy of `frame` (id, times, flow, hops and bytes): one frame delivered to several places.
  FramePtr copy(const Frame& frame);
  // Frames ever allocated: stays flat in a steady state however long the run.
  std::size_t allocated() const { return allocated_; }
  std::uint64_t frames_created() const { return created_; }

 private:
  friend struct FrameRecycler;
  void release(Frame* frame) { free_.push_back(frame); }

  std::vector<Frame*> free_;
  std::size_t allocated_ = 0;
  std::uint64_t created_ = 0;
};

}  // namespace gbesim
