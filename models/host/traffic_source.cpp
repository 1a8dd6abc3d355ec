#include "models/host/traffic_source.hpp"

#include <algorithm>
#include <cmath>

namespace gbesim {
namespace {

FrameHeader header_for(const TrafficParams& params, const SourceConfig& config, const Mac& mac) {
  FrameHeader h;
  h.destination = config.destination;
  h.source = mac.address();
  if (params.vlan_id >= 0)
    h.vlan_tci = static_cast<std::uint16_t>(params.vlan_pcp << 13 | params.vlan_id);
  return h;
}

}  // namespace

TrafficSource::TrafficSource(sc_core::sc_module_name name, const TrafficParams& params,
                             const SourceConfig& config, Mac& mac, SimContext& context)
    : sc_module(name),
      params_(params),
      config_(config),
      mac_(mac),
      context_(context),
      rng_(context.rng_for(this->name())),
      builder_(header_for(params, config, mac)),
      script_(params.script),
      stats_(context.stats, this->name()),
      frames_generated_(stats_, "frames_generated", "frames", "frames offered to the MAC"),
      octets_generated_(stats_, "octets_generated", "bytes", "DA..FCS bytes offered to the MAC"),
      frames_refused_(stats_, "frames_refused", "frames",
                      "frames the MAC did not accept (queue full)") {
  stats_.rate("offered_load", "bit/s", "DA..FCS bits offered per second",
              bits_per_second(octets_generated_));
  std::stable_sort(script_.begin(), script_.end(),
                   [](const ScriptEntry& a, const ScriptEntry& b) { return a.at_ns < b.at_ns; });

  if (params_.pattern == TrafficPattern::saturated) {
    mac.tx_queue().dequeued.connect([this](const Frame& f) {
      if (f.flow == config_.flow) --own_in_queue_;
      // The MAC decides at its own instant (a frame end it catches up on: Mac::station_now).
      if (own_in_queue_ == 0 && may_generate(mac_.station_now()))
        emit(params_.frame_bytes.draw(rng_));
    });
  }
  mac.add_supplier(this);
  if (params_.pattern == TrafficPattern::saturated) mac.add_queue_keeper(this);
  SC_METHOD(process);
  sensitive << start_;
  dont_initialize();
}

void TrafficSource::start_of_simulation() {
  if (!params_.enabled) return;  // due_ps_ stays kForeverPs
  // The first event is at start_ns (or at the first script time after it).
  due_ps_ = params_.start_ns * kPsPerNs;
  if (params_.pattern == TrafficPattern::script) {
    if (script_.empty()) {
      due_ps_ = kForeverPs;
      return;
    }
    due_ps_ = std::max(due_ps_, script_.front().at_ns * kPsPerNs);
  }
  if (params_.pattern == TrafficPattern::poisson) {
    // A Poisson process started at start_ns: its first arrival comes after a gap too.
    due_ps_ = std::min(kForeverPs, due_ps_ + round_to_ps(rng_.exponential(mean_gap_ps())));
  }
  start_.notify(to_sc_time(due_ps_));
}

bool TrafficSource::may_generate(Picoseconds at) const {
  if (params_.count > 0 && frames_generated_.value() >= static_cast<std::uint64_t>(params_.count))
    return false;
  if (at < params_.start_ns * kPsPerNs) return false;
  return params_.stop_ns < 0 || at < params_.stop_ns * kPsPerNs;
}

bool TrafficSource::keeps_queue_filled(Picoseconds until, std::uint64_t pops) const {
  // A frame is never shorter than 64 bytes (68 tagged; the MAC takes 4 more for those).
  constexpr std::int64_t kLongestMinimum = 68;
  if (own_in_queue_ == 0 || !params_.enabled) return false;
  if (std::max(params_.frame_bytes.largest(), kLongestMinimum) > mac_.params().max_frame_bytes)
    return false;
  if (params_.count > 0 &&
      frames_generated_.value() + pops > static_cast<std::uint64_t>(params_.count))
    return false;
  return params_.stop_ns < 0 || until < params_.stop_ns * kPsPerNs;
}

bool TrafficSource::emit(std::int64_t bytes) {
  FramePtr frame = context_.frames.acquire();
  frame->flow = config_.flow;
  frame->id = config_.flow * kFrameIdCreator + sequence_ + 1;
  builder_.build(*frame,
                 client_bytes_for_frame_size(builder_.header(), static_cast<std::size_t>(bytes)),
                 ++sequence_);
  ++frames_generated_;
  octets_generated_ += frame->size();
  if (!mac_.enqueue(std::move(frame))) {
    ++frames_refused_;
    return false;
  }
  if (params_.pattern == TrafficPattern::saturated) ++own_in_queue_;
  return true;
}

double TrafficSource::mean_gap_ps() const {
  return 8.0 * params_.frame_bytes.mean_bytes() * 1e12 / params_.load_bps;
}

Picoseconds TrafficSource::gap_at_rate(std::int64_t bytes, double rate_bps) const {
  return round_to_ps(8.0 * static_cast<double>(bytes) * 1e12 / rate_bps);
}

void TrafficSource::process() {
  ++context_.activations;
  const Picoseconds now = now_ps();
  mac_.settle_station(now);  // settles this source too, in flow order with the others
  settle(now);               // (a no-op after the above; keeps the source live on its own)
  if (due_ps_ < kForeverPs) next_trigger(to_sc_time(due_ps_ - now));
}

void TrafficSource::settle(Picoseconds now) {
  while (due_ps_ <= now) step(due_ps_);
}

void TrafficSource::step(Picoseconds at) {
  if (!may_generate(at)) {
    due_ps_ = kForeverPs;
    return;
  }
  switch (params_.pattern) {
    case TrafficPattern::saturated:
      // Only the first frame comes from here; the rest are queued from the dequeue hook.
      if (own_in_queue_ == 0) emit(params_.frame_bytes.draw(rng_));
      due_ps_ = kForeverPs;
      return;
    case TrafficPattern::poisson:
      emit(params_.frame_bytes.draw(rng_));
      due_ps_ = std::min(kForeverPs, at + round_to_ps(rng_.exponential(mean_gap_ps())));
      return;
    case TrafficPattern::script:
      while (script_next_ < script_.size() && script_[script_next_].at_ns * kPsPerNs <= at &&
             may_generate(at)) {
        emit(script_[script_next_++].bytes);
      }
      due_ps_ = script_next_ < script_.size() && may_generate(at)
                    ? script_[script_next_].at_ns * kPsPerNs
                    : kForeverPs;
      return;
    case TrafficPattern::on_off: {
      // Periods last at least 1 ps, so that alternating periods always advance time.
      auto period = [this](double mean_ns) {
        const double ns =
            params_.periods == OnOffPeriods::fixed ? mean_ns : rng_.exponential(mean_ns);
        return std::max<Picoseconds>(1, round_to_ps(ns * kPsPerNs));
      };
      if (period_end_ps_ == 0 && !on_) {  // the first event: an on-period begins
        on_ = true;
        period_end_ps_ = at + period(params_.on_ns);
      } else if (at >= period_end_ps_) {  // a period ends here
        on_ = !on_;
        period_end_ps_ = at + period(on_ ? params_.on_ns : params_.off_ns);
      }
      if (!on_) {
        due_ps_ = period_end_ps_;
        return;
      }
      const std::int64_t bytes = params_.frame_bytes.draw(rng_);
      emit(bytes);
      // The next frame goes at its evenly spaced time if still inside this on-period, else the
      // next event is the end of the period.
      due_ps_ = std::min(at + gap_at_rate(bytes, params_.peak_load_bps), period_end_ps_);
      return;
    }
  }
}

}  // namespace gbesim
