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

Confidence confidence_of(MediumConfidence confidence) {
  switch (confidence) {
    case MediumConfidence::confirmed:
      return Confidence::confirmed;
    case MediumConfidence::derived:
      return Confidence::derived;
    case MediumConfidence::unconfirmed:
    case MediumConfidence::assumption:
      return Confidence::unconfirmed;
    case MediumConfidence::user:
      break;
  }
  return Confidence::user;
}

std::string default_dte_phy(std::int64_t rate) {
  if (rate == 100) return "tx";
  return std::to_string(rate);
}

double default_dte_pair_bt(const DelayTable& table, std::int64_t rate_mbps) {
  const std::string phy = default_dte_phy(rate_mbps);
  const DeviceDelay* row = table.device(dte_pair_key(phy, phy), rate_mbps);
  return row != nullptr ? row->round_trip_bt : 0.0;
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

std::string format_ns_per_m(double v) {
  std::string s = std::to_string(v);
  s.erase(s.find_last_not_of('0') + 1);
  if (!s.empty() && s.back() == '.') s.pop_back();
  return s;
}

}  // namespace

DelayTable DelayTable::standard() {
  DelayTable t;
  const auto device = [&t](const std::string& name, std::int64_t rate, double bt,
                           const char* source, Confidence c) {
    t.devices_.push_back({name, rate, bt, source, c});
  };
  using C = Confidence;

  for (const auto& row : builtin_media()) t.set_medium(row.name, row.params);

  // 100 Mb/s, Clause 29 model 2.
  device(dte_pair_key("tx", "tx"), 100, 100, kIntelHub, C::confirmed);
  device(dte_pair_key("t4", "t4"), 100, 138, kIntelHub, C::confirmed);
  device(dte_pair_key("t4", "tx"), 100, 127, kIntelHub, C::confirmed);
  device(repeater_key("class_i"), 100, 140, kIntelHub, C::confirmed);
  device(repeater_key("class_ii"), 100, 92, kIntelHub, C::confirmed);
  device(repeater_key("class_ii_t4"), 100, 67, kIitek, C::confirmed);

  // 1000 Mb/s, Clause 42: the component values are recalled, not retrieved.
  device(dte_pair_key("1000", "1000"), 1000, 864, kGigRecalled, C::unconfirmed);
  device(repeater_key("gigabit"), 1000, 976, kGigRecalled, C::unconfirmed);

  // 10 Mb/s: 802.3 Clause 13 counts DTEs and repeaters per segment type (LSDV tables), which
  // are not in this table: 10 Mb/s domains are checked by the model 1 rules unless the file
  // gives device delays.

  t.budgets_ = {
      {10, 575, 5,
       "802.3 Clause 13 model 2 round-trip budget incl. up to 5 BT margin [Spurgeon-QR]"},
      {100, 512, 5, "802.3 Clause 29 model 2: PDV <= 512 BT, margin 0-5 BT (Intel hub manual)"},
      {1000, 4096, 32, "slotTime at 1000 Mb/s (802.3 4.2.3.2.3); margin up to 32 BT (recalled)"},
  };
  return t;
}

void DelayTable::set_medium(const std::string& name, const MediumParams& params) {
  media_.erase(std::remove_if(media_.begin(), media_.end(),
                              [&name](const MediumDelay& m) { return m.medium == name; }),
               media_.end());
  for (const std::int64_t rate : {10, 100, 1000})
    media_.push_back({name, rate, round_trip_bt_per_m(params.ns_per_m, static_cast<double>(rate)),
                      params.source + " (" + format_ns_per_m(params.ns_per_m) + " ns/m, " +
                          std::string(choice_name(params.basis)) + ")",
                      confidence_of(params.confidence)});
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
