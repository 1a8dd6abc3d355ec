#pragma once
// The round-trip delay figures of IEEE 802.3's collision-domain models as one data table: cable
// delay per metre per medium and speed, DTE-pair and repeater delays, and the budget per speed.
// Every row names its source; rows whose value is not confirmed against a primary document say
// so (docs/references.md, Standards B). The media rows are the media table's
// (models/medium/media: one ns/m per medium, the same figure links and collision domains use),
// in round-trip bit times at each speed; a topology file or a scenario adds or replaces media;
// device delays are replaced per node (delay_bt), not in the table.
//
// All values are round trip, in bit times (BT) at the row's speed.
// Does not model: 10 Mb/s device delays (Clause 13's per-segment tables: no DTE-pair or repeater
// row at 10 Mb/s), path variability values, or PHY-specific delays at 1000 Mb/s (one DTE-pair and
// one repeater row); the 1000 Mb/s rows are recalled, not confirmed.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "models/medium/media.hpp"

namespace gbesim {

enum class Confidence {
  confirmed,    // a published table or worked example gives this value
  derived,      // computed from confirmed rows (e.g. the same ns/m at another speed)
  unconfirmed,  // recalled or assumed; kept as data so it can be corrected in one place
  user,         // given in the topology file
};
// A medium row's confidence as the table's: an assumption is unconfirmed.
Confidence confidence_of(MediumConfidence confidence);
const char* confidence_name(Confidence c);

struct MediumDelay {
  std::string medium;  // e.g. "cat5"
  std::int64_t rate_mbps = 100;
  double round_trip_bt_per_m = 0;
  std::string source;
  Confidence confidence = Confidence::confirmed;
};

// Devices: DTE pairs (by the PHY types of the two ends) and repeater classes.
struct DeviceDelay {
  std::string device;  // "dte_pair:tx+tx", "repeater:class_ii", ...
  std::int64_t rate_mbps = 100;
  double round_trip_bt = 0;
  std::string source;
  Confidence confidence = Confidence::confirmed;
};

struct Budget {
  std::int64_t rate_mbps = 100;
  double budget_bt = 512;    // the path delay value must not exceed this
  double max_margin_bt = 0;  // the margin 802.3 allows for (reported, not added by default)
  std::string source;
};

class DelayTable {
 public:
  // The built-in rows.
  static DelayTable standard();

  // A medium of the media table at every speed, replacing its rows.
  void set_medium(const std::string& name, const MediumParams& params);
  void set_device(DeviceDelay row);

  const MediumDelay* medium(const std::string& name, std::int64_t rate_mbps) const;
  const DeviceDelay* device(const std::string& name, std::int64_t rate_mbps) const;
  const Budget* budget(std::int64_t rate_mbps) const;
  // Every medium name, for did-you-mean and listings.
  std::vector<std::string> media_names() const;

  const std::vector<MediumDelay>& media() const { return media_; }
  const std::vector<DeviceDelay>& devices() const { return devices_; }
  const std::vector<Budget>& budgets() const { return budgets_; }

 private:
  std::vector<MediumDelay> media_;
  std::vector<DeviceDelay> devices_;
  std::vector<Budget> budgets_;
};

// A station's PHY type when nothing names it: "tx" at 100 Mb/s, "1000" at 1000, "10" at 10.
std::string default_dte_phy(std::int64_t rate_mbps);
// The round-trip delay of two such stations (864 BT at 1000 Mb/s, 100 at 100), 0 if the table
// has none (10 Mb/s).
double default_dte_pair_bt(const DelayTable& table, std::int64_t rate_mbps);

// Device keys.
std::string dte_pair_key(const std::string& phy_a, const std::string& phy_b);  // sorted
std::string repeater_key(const std::string& repeater_class);

}  // namespace gbesim
