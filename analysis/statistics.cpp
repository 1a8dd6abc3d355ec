#include "analysis/statistics.hpp"

#include <algorithm>
#include <boost/math/distributions/students_t.hpp>
#include <cmath>
#include <limits>

namespace gbesim {

double student_t_quantile(double p, double degrees_of_freedom) {
  const boost::math::students_t dist(degrees_of_freedom);
  return boost::math::quantile(dist, p);
}

SampleSummary summarize(const std::vector<double>& samples) {
  SampleSummary s;
  s.n = samples.size();
  if (s.n == 0) {
    s.mean = std::numeric_limits<double>::quiet_NaN();
    s.ci95_half_width = s.mean;
    return s;
  }
  double sum = 0;
  for (double x : samples) sum += x;
  s.mean = sum / static_cast<double>(s.n);
  if (s.n < 2) {
    s.ci95_half_width = std::numeric_limits<double>::quiet_NaN();
    return s;
  }
  double squares = 0;
  for (double x : samples) squares += (x - s.mean) * (x - s.mean);
  s.stddev = std::sqrt(squares / static_cast<double>(s.n - 1));
  s.ci95_half_width = student_t_quantile(0.975, static_cast<double>(s.n - 1)) * s.stddev /
                      std::sqrt(static_cast<double>(s.n));
  return s;
}

double median(std::vector<double> samples) {
  if (samples.empty()) return std::numeric_limits<double>::quiet_NaN();
  std::sort(samples.begin(), samples.end());
  const std::size_t n = samples.size();
  return n % 2 == 1 ? samples[n / 2] : 0.5 * (samples[n / 2 - 1] + samples[n / 2]);
}

}  // namespace gbesim
