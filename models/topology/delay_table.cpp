#include "models/topology/delay_table.hpp"

#include <algorithm>

namespace gbesim {

const char* confidence_name(Confidence c) {
  switch (c) {
    case Confidence::confirmed:
      return "confirmed";
    case Confidence::derived:
      return "derived";
    case Confidence::unconfirmed:
      return "UNCONFIRMED";
    case Confidence::user:
      return "user";
  }
  return "?";
}

std::string dte_pair_key(const std::string& phy_a, const std::string& phy_b) {
  return "dte_pair:" + std::min(phy_a, phy_b) + "+" + std::max(phy_a, phy_b);
}

std::string repeater_key(const std::string& repeater_class) {
  return "repeater:" + repeater_class;
}

namespace {

// Sources (see docs/references.md, Standards B).
constexpr const char* kIntelHub =
    "Intel Express 100BASE-TX hub manual, App. B; Black Box LH8000A (802.3u-1995 worst case)";
constexpr const char* kIitek = "iitek.com tekcorner (802.3u Class II repeater with a T4 port)";
constexpr const char* kGigRecalled =
    "802.3 Clause 42 component delays, recalled (docs/references.md, Standards B.3); consistent "
    "with the 200 m one-repeater diameter: 864 + 2 x 1112 + 976 = 4064 <= 4096";
constexpr const char* kFrom100 =
    "same ns per metre as the 100 Mb/s row (propagation does not depend on the bit rate)";

}  // namespace

DelayTable DelayTable::standard() {
  DelayTable t;
  const auto medium = [&t](const char* name, std::int64_t rate, double bt_per_m, const char* source,
                           Confidence c) {
    t.media_.push_back({name, rate, bt_per_m, source, c});
  };
  const auto device = [&t](const std::string& name, std::int64_t rate, double bt,
                           const char* source, Confidence c) {
    t.devices_.push_back({name, rate, bt, source, c});
  };
  using C = Confidence;

  // 100 Mb/s, Clause 29 model 2.
  medium("cat3", 100, 1.14, kIntelHub, C::confirmed);
  medium("cat4", 100, 1.14, kIntelHub, C::confirmed);
  medium("cat5", 100, 1.112, kIntelHub, C::confirmed);
  medium("stp", 100, 1.112, kIntelHub, C::confirmed);
  medium("cat5e", 100, 1.112, "assumed equal to Cat 5 (802.3u predates Cat 5e)", C::unconfirmed);
  medium("cat6", 100, 1.112, "assumed equal to Cat 5 (802.3u predates Cat 6)", C::unconfirmed);
  medium("fibre_mm", 100, 1.0, kIntelHub, C::confirmed);
  medium("fibre_sm", 100, 1.0, "assumed equal to multimode fibre", C::unconfirmed);
  device(dte_pair_key("tx", "tx"), 100, 100, kIntelHub, C::confirmed);
  device(dte_pair_key("t4", "t4"), 100, 138, kIntelHub, C::confirmed);
  device(dte_pair_key("t4", "tx"), 100, 127, kIntelHub, C::confirmed);
  device(repeater_key("class_i"), 100, 140, kIntelHub, C::confirmed);
  device(repeater_key("class_ii"), 100, 92, kIntelHub, C::confirmed);
  device(repeater_key("class_ii_t4"), 100, 67, kIitek, C::confirmed);

  // 1000 Mb/s, Clause 42: the component values are recalled, not retrieved.
  medium("cat5", 1000, 11.12, kGigRecalled, C::unconfirmed);
  medium("cat5e", 1000, 11.12, "assumed equal to Cat 5", C::unconfirmed);
  medium("cat6", 1000, 11.12, "assumed equal to Cat 5", C::unconfirmed);
  medium("stp", 1000, 11.12, "assumed equal to Cat 5", C::unconfirmed);
  medium("cx", 1000, 10.10, kGigRecalled, C::unconfirmed);
  medium("fibre_mm", 1000, 10.10, kGigRecalled, C::unconfirmed);
  medium("fibre_sm", 1000, 10.10, kGigRecalled, C::unconfirmed);
  device(dte_pair_key("1000", "1000"), 1000, 864, kGigRecalled, C::unconfirmed);
  device(repeater_key("gigabit"), 1000, 976, kGigRecalled, C::unconfirmed);

  // 10 Mb/s: cable delay per metre from the 100 Mb/s rows; 802.3 Clause 13 counts DTEs and
  // repeaters per segment type (LSDV tables), which are not in this table: 10 Mb/s domains are
  // checked by the model 1 rules unless the file gives device delays.
  medium("cat3", 10, 0.114, kFrom100, C::derived);
  medium("cat4", 10, 0.114, kFrom100, C::derived);
  medium("cat5", 10, 0.1112, kFrom100, C::derived);
  medium("stp", 10, 0.1112, kFrom100, C::derived);
  medium("cat5e", 10, 0.1112, kFrom100, C::unconfirmed);
  medium("cat6", 10, 0.1112, kFrom100, C::unconfirmed);
  medium("fibre_mm", 10, 0.1, kFrom100, C::derived);
  medium("fibre_sm", 10, 0.1, kFrom100, C::unconfirmed);

  t.budgets_ = {
      {10, 575, 5,
       "802.3 Clause 13 model 2 round-trip budget incl. up to 5 BT margin [Spurgeon-QR]"},
      {100, 512, 5, "802.3 Clause 29 model 2: PDV <= 512 BT, margin 0-5 BT (Intel hub manual)"},
      {1000, 4096, 32, "slotTime at 1000 Mb/s (802.3 4.2.3.2.3); margin up to 32 BT (recalled)"},
  };
  return t;
}

void DelayTable::set_medium(MediumDelay row) {
  for (auto& m : media_) {
    if (m.medium == row.medium && m.rate_mbps == row.rate_mbps) {
      m = std::move(row);
      return;
    }
  }
  media_.push_back(std::move(row));
}

void DelayTable::set_device(DeviceDelay row) {
  for (auto& d : devices_) {
    if (d.device == row.device && d.rate_mbps == row.rate_mbps) {
      d = std::move(row);
      return;
    }
  }
  devices_.push_back(std::move(row));
}

const MediumDelay* DelayTable::medium(const std::string& name, std::int64_t rate_mbps) const {
  for (const auto& m : media_)
    if (m.medium == name && m.rate_mbps == rate_mbps) return &m;
  return nullptr;
}

const DeviceDelay* DelayTable::device(const std::string& name, std::int64_t rate_mbps) const {
  for (const auto& d : devices_)
    if (d.device == name && d.rate_mbps == rate_mbps) return &d;
  return nullptr;
}

const Budget* DelayTable::budget(std::int64_t rate_mbps) const {
  for (const auto& b : budgets_)
    if (b.rate_mbps == rate_mbps) return &b;
  return nullptr;
}

std::vector<std::string> DelayTable::media_names() const {
  std::vector<std::string> names;
  for (const auto& m : media_)
    if (std::find(names.begin(), names.end(), m.medium) == names.end()) names.push_back(m.medium);
  return names;
}

}  // namespace gbesim
