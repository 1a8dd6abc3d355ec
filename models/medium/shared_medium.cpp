#include "models/medium/shared_medium.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <string_view>

namespace gbesim {

namespace {

// GBESIM_MEDIUM_WAKES=stations / =medium: every domain's stations keep their own wakes / the
// medium keeps them, whatever its size (SharedMedium::kWakesKeptFrom); for the differential
// tests, which compare the two.
enum class WakesKept { by_size, by_stations, by_medium };
WakesKept wakes_kept() {
  static const WakesKept kept = [] {
    const char* v = std::getenv("GBESIM_MEDIUM_WAKES");
    if (v == nullptr) return WakesKept::by_size;
    if (std::string_view(v) == "stations") return WakesKept::by_stations;
    if (std::string_view(v) == "medium") return WakesKept::by_medium;
    return WakesKept::by_size;
  }();
  return kept;
}

// GBESIM_PRUNE_EVERY=N: the history is pruned every N ends instead of every 16 (0: never); for
// the tests that show the answers do not depend on when it is pruned.
std::uint64_t prune_every() {
  static const std::uint64_t every = [] {
    const char* v = std::getenv("GBESIM_PRUNE_EVERY");
    // Digits only; anything else means the default.
    if (v == nullptr || *v == '\0' || std::strspn(v, "0123456789") != std::strlen(v))
      return std::uint64_t{16};
    return static_cast<std::uint64_t>(std::strtoull(v, nullptr, 10));
  }();
  return every;
}

}  // namespace

MediumPort::MediumPort(sc_core::sc_module_name name, SharedMedium& medium, std::size_t index,
                       SimContext& context)
    : sc_module(name), medium_(medium), index_(index), context_(context) {
  SC_METHOD(deliver_process);
  sensitive << arrival_;
  dont_initialize();
  SC_METHOD(carrier_process);
  sensitive << carrier_edge_;
  dont_initialize();
}

void MediumPort::schedule(FramePtr frame, std::size_t sender, Picoseconds from, Picoseconds at) {
  // Intact frames reach a station in order; only a frame that is going to be found damaged can
  // be overtaken, so the insertion is almost always at the back.
  auto it = pending_.end();
  while (it != pending_.begin() && std::prev(it)->at > at) --it;
  pending_.insert(it, {std::move(frame), sender, from, at});
  due_ps_ = pending_.front().at;
  arm();
}

void MediumPort::settle(Picoseconds now) {
  if (pending_.empty() || pending_.front().at > now) return;
  // Every frame arrived by now has been found intact or damaged (SharedMedium::judge_until).
  medium_.judge_until(now);
  while (!pending_.empty() && pending_.front().at <= now) {
    Pending p = std::move(pending_.front());
    pending_.pop_front();
    due_ps_ = pending_.empty() ? kForeverPs : pending_.front().at;
    if (receiver_ != nullptr) receiver_->receive(std::move(p.frame), p.at);
  }
  if (deliver_late_) arm();
}

bool MediumPort::deliver_late() {
  deliver_late_ = receiver_ != nullptr && receiver_->takes_late_delivery() && !carrier_trace_;
  if (deliver_late_) receiver_->settled_at_every_stop();
  arm();
  return deliver_late_;
}

void MediumPort::arm() {
  // arrival_ wakes us at the first arrival, or with late delivery when kLateBatch frames wait.
  const std::size_t wake_at = deliver_late_ ? kLateBatch - 1 : 0;
  const Picoseconds first = pending_.size() > wake_at ? pending_[wake_at].at : kForeverPs;
  // A late sender's frames may arrive here once their instant has passed (late bursts).
  armed_.set_or_now(first);
}

void MediumPort::deliver_process() {
  ++context_.activations;
  armed_.fired();
  settle_receiver(now_ps());
  arm();
}

void MediumPort::settle_receiver(Picoseconds now) {
  if (receiver_ != nullptr) {
    receiver_->settle_station(now);
  } else {
    settle(now);
  }
}

void MediumPort::add_carrier_edge(Picoseconds at, int change) {
  auto it = carrier_edges_.end();
  while (it != carrier_edges_.begin() && std::prev(it)->first > at) --it;
  carrier_edges_.insert(it, {at, change});
  carrier_edge_.notify(to_sc_time(carrier_edges_.front().first - now_ps()));
}

void MediumPort::carrier_process() {
  ++context_.activations;
  const Picoseconds now = now_ps();
  while (!carrier_edges_.empty() && carrier_edges_.front().first <= now) {
    signals_present_ += carrier_edges_.front().second;
    carrier_edges_.pop_front();
  }
  carrier_ = signals_present_ > 0;
  if (!carrier_edges_.empty()) carrier_edge_.notify(to_sc_time(carrier_edges_.front().first - now));
}

SharedMedium::SharedMedium(sc_core::sc_module_name name,
                           std::vector<std::vector<Picoseconds>> delay_ps,
                           const std::vector<std::string>& station_names, std::int64_t rate_mbps,
                           SimContext& context)
    : sc_module(name),
      domain_(std::move(delay_ps)),
      context_(context),
      waiting_for_close_(domain_.size(), false),
      first_told_(domain_.size(), kForeverPs),
      stats_(context.stats, this->name(), bit_time_ps(rate_mbps), stations_,
             [this](Picoseconds elapsed) { return busy_ps(elapsed); }) {
  waiting_ = MinTree(domain_.size(), kForeverPs);
  const WakesKept kept = wakes_kept();
  keeps_wakes_ = kept == WakesKept::by_medium ||
                 (kept == WakesKept::by_size && domain_.size() >= kWakesKeptFrom);
  if (keeps_wakes_) {
    wakes_ = WakeHeap(domain_.size());
    SC_METHOD(wake_process);
    sensitive << wake_event_;
    dont_initialize();
  }
  for (std::size_t i = 0; i < domain_.size(); ++i) {
    const std::string port = "to_" + station_names[i];
    ports_.push_back(std::make_unique<MediumPort>(port.c_str(), *this, i, context));
  }
}

double SharedMedium::busy_ps(Picoseconds elapsed) const {
  const Picoseconds end = open_ > 0 ? elapsed : std::min(period_end_, elapsed);
  return static_cast<double>(busy_closed_ps_) + static_cast<double>(end - period_start_);
}

std::size_t SharedMedium::attach(HalfDuplexStation& station) {
  const std::size_t index = stations_.size();
  stations_.push_back(&station);
  address_keys_.push_back(address_key(station.station_address().octets.data()));
  promiscuous_.push_back(station.promiscuous());
  max_gap_ps_ = std::max(max_gap_ps_, station.max_gap_ps());
  longest_ifg_ps_ = std::max(longest_ifg_ps_, station.ifg_ps());
  shortest_signal_ps_ = std::min(shortest_signal_ps_, station.shortest_signal_ps());
  domain_.set_shortest_signal(shortest_signal_ps_, longest_ifg_ps_);
  by_address_[address_keys_.back()].push_back(address_keys_.size() - 1);
  if (station.promiscuous()) promiscuous_list_.push_back(address_keys_.size() - 1);
  ports_[index]->attach(&station);
  return index;
}

const ModelVocabulary& MediumPort::vocabulary() {
  static const ModelVocabulary v{
      "medium",
      "domain<i>.to_<station> (in the VCD: <station>.carrier)",
      "a station's port on a half-duplex collision domain (docs/medium.md)",
      {},
      {{"carrier", "1 while another station's signal reaches this station"}}};
  return v;
}

std::vector<TracedValue> MediumPort::trace_state() {
  medium_.enable_carrier_trace();
  return {traced(vocabulary(), "carrier", carrier_)};
}

void SharedMedium::enable_carrier_trace() {
  carrier_trace_ = true;
  for (auto& p : ports_) p->enable_carrier_trace();
}

void SharedMedium::begin(std::size_t station, Picoseconds now) {
  domain_.begin(station, now);
  ++stats_.transmissions;
  if (open_ == 0 && now > period_end_) {
    busy_closed_ps_ += static_cast<std::uint64_t>(period_end_ - period_start_);
    period_start_ = now;
    period_end_ = now;
  }
  ++open_;
  // Only a station with a signal of its own on the medium can collide with this one (one that
  // starts later finds this signal with first_signal_from), so only they are told, in station
  // order as a loop over every station would. A station already told of a signal arriving no
  // later learns nothing from this one (docs/medium.md): in a collision of hundreds of
  // stations most are not called.
  first_told_[station] = kForeverPs;
  const std::vector<std::size_t>& sending = domain_.transmitting_stations();
  const DelayMatrix::Row from_here = domain_.delays_from(station);
  for (const std::size_t k : sending) {
    if (k == station || now + from_here.at_least(k) >= first_told_[k]) continue;
    const Picoseconds at = now + from_here[k];
    if (at >= first_told_[k]) continue;
    first_told_[k] = at;
    stations_[k]->on_signal_arrival(at);
  }
  if (carrier_trace_) {
    for (std::size_t k = 0; k < stations_.size(); ++k)
      if (k != station) ports_[k]->add_carrier_edge(now + domain_.delay(station, k), +1);
  }
}

void SharedMedium::end(std::size_t station, Picoseconds now) {
  domain_.end(station, now);
  judge_until(now);
  --open_;
  period_end_ = std::max(period_end_, now);
  if (carrier_trace_) {
    for (std::size_t k = 0; k < stations_.size(); ++k)
      if (k != station) ports_[k]->add_carrier_edge(now + domain_.delay(station, k), -1);
  }
  // The stations waiting for an end, in station order; each may ask again while being told. A
  // station whose deference waited for an open transmission learns nothing from this end if
  // this signal, where it is seen, lasts until another open one has arrived there: the two
  // touch, so its busy periods are the same as before (one of them still open), and so is its
  // answer (none yet). It goes on waiting without asking.
  std::vector<std::size_t>& told = closing_;
  told.swap(waiting_list_);  // closing_ is empty between ends: waiting_list_ starts anew
  // Those still waiting from the last end stay in order (the first waiting_in_order_); only
  // stations that began to wait since, after them, are out of place: those are sorted, and the
  // two runs merged.
  const auto since = told.begin() + static_cast<std::ptrdiff_t>(waiting_in_order_);
  if (!std::is_sorted(since, told.end())) std::sort(since, told.end());
  if (since != told.begin() && since != told.end() && *(since - 1) > *since) {
    merging_.clear();
    std::merge(told.begin(), since, since, told.end(), std::back_inserter(merging_));
    told.swap(merging_);
  }
  for (const std::size_t k : told) {
    if (domain_.open_signal_by(k, now + domain_.delay(station, k))) {
      waiting_list_.push_back(k);
      continue;
    }
    waiting_for_close_[k] = false;
    stations_[k]->on_medium_closed(now);
  }
  told.clear();
  // Each station told pushed itself (staying, or asking again) as its turn came, in order.
  waiting_in_order_ = static_cast<std::size_t>(
      std::is_sorted_until(waiting_list_.begin(), waiting_list_.end()) - waiting_list_.begin());
  if (prune_every() != 0 && ++ends_since_prune_ >= prune_every()) {
    ends_since_prune_ = 0;
    prune_history(now);
  }
}

void SharedMedium::prune_history(Picoseconds now) {
  // Forget what can no longer matter to anyone: signals gone before the oldest instant a
  // waiting frame (or a frame queued from now on) looks back to for collision detection, less
  // a gap, and before the first bit of every frame still arriving somewhere (judged at its last
  // bit) -- and never what a station's next deference answer needs (the cycle its walk starts
  // from; CollisionDomain::prune_for_deference). The oldest ready time is kept as the stations
  // report it, so this looks at no station.
  Picoseconds wanted = std::min(now, waiting_.least()) - max_gap_ps_;
  for (const Unjudged& u : unjudged_) wanted = std::min(wanted, u.from);
  domain_.prune_for_deference(wanted);
}

void SharedMedium::wake_process() {
  wake_alarm_.fired();
  const Picoseconds now = now_ps();
  // A station woken may ask for another wake now (its own, or another's): taken in this loop,
  // as the kernel would a delta cycle later. Re-armed for the next when done, even if a station
  // stops the run with an error (then without throwing again: set_or_now).
  struct Pass {
    SharedMedium& medium;
    explicit Pass(SharedMedium& m) : medium(m) { medium.waking_ = true; }
    ~Pass() {
      medium.waking_ = false;
      if (!medium.wakes_.empty()) medium.wake_alarm_.set_or_now(medium.wakes_.top_at());
    }
  } pass(*this);
  while (!wakes_.empty() && wakes_.top_at() <= now) {
    const Picoseconds at = wakes_.top_at();
    stations_[wakes_.pop()]->wake_up(at);
  }
}

void SharedMedium::waiting_since(std::size_t station, Picoseconds ready) {
  waiting_.set(station, ready);
}

void SharedMedium::judge_until(Picoseconds now) {
  // Whether a frame arrived intact depends on the signals present at its receiver while it
  // arrived, all of which had begun by its last bit: the answer is the same at any instant from
  // then on, and the history holds them until then (a prune keeps everything from the first
  // bit of every frame not yet judged: prune_history). Frames are judged in the order they
  // arrive.
  while (!unjudged_.empty() && unjudged_.front().at <= now) {
    std::pop_heap(unjudged_.begin(), unjudged_.end(), std::greater<Unjudged>());
    const Unjudged u = unjudged_.back();
    unjudged_.pop_back();
    // Something else was on the wire there during the frame: what arrives is damaged. The
    // receiver finds out the way hardware does, from the FCS.
    if (!domain_.clear_reception(u.sender, u.receiver, u.from, u.at)) {
      u.frame->bytes.back() ^= 0x01;
      u.frame->fcs_intact = false;
    }
  }
}

void SharedMedium::deliver(std::size_t station, FramePtr frame, Picoseconds first_bit,
                           Picoseconds last_bit) {
  const std::uint64_t da = address_key(frame->bytes.data());
  const bool group = (frame->bytes[0] & 1U) != 0;
  std::vector<std::size_t>& to = recipients_;
  to.clear();
  if (group) {
    for (std::size_t k = 0; k < stations_.size(); ++k)
      if (k != station) to.push_back(k);
  } else {
    // The stations with that address and the promiscuous ones, in station order (both lists
    // are), each once: found by address, not by looking at every station.
    static const std::vector<std::size_t> kNobody;
    const auto it = by_address_.find(da);
    const std::vector<std::size_t>& named = it == by_address_.end() ? kNobody : it->second;
    std::size_t a = 0, b = 0;
    while (a < named.size() || b < promiscuous_list_.size()) {
      std::size_t k;
      if (b == promiscuous_list_.size() || (a < named.size() && named[a] <= promiscuous_list_[b])) {
        k = named[a++];
        if (b < promiscuous_list_.size() && promiscuous_list_[b] == k) ++b;
      } else {
        k = promiscuous_list_[b++];
      }
      if (k != station) to.push_back(k);
    }
  }
  for (std::size_t n = 0; n < to.size(); ++n) {
    const std::size_t k = to[n];
    FramePtr copy;
    if (n + 1 == to.size()) {
      copy = std::move(frame);
    } else {
      copy = context_.frames.copy(*frame);
    }
    const Picoseconds d = domain_.delay(station, k);
    unjudged_.push_back({last_bit + d, first_bit + d, station, k, copy.get()});
    std::push_heap(unjudged_.begin(), unjudged_.end(), std::greater<Unjudged>());
    ports_[k]->schedule(std::move(copy), station, first_bit + d, last_bit + d);
  }
}

bool SharedMedium::delivers_late_everywhere() const {
  return std::all_of(ports_.begin(), ports_.end(),
                     [](const std::unique_ptr<MediumPort>& p) { return p->delivers_late(); });
}

void SharedMedium::catch_up_late_sender(Picoseconds now) {
  stations_[late_station_]->catch_up_burst(now);
}

void SharedMedium::account_success(Picoseconds preamble_ps, Picoseconds frame_ps,
                                   Picoseconds extension_ps) {
  stats_.preamble_ps += static_cast<std::uint64_t>(preamble_ps);
  stats_.frame_ps += static_cast<std::uint64_t>(frame_ps);
  stats_.extension_ps += static_cast<std::uint64_t>(extension_ps);
}

}  // namespace gbesim
