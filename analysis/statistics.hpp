#pragma once
// Statistics over replications: mean and the half-width of a two-sided 95% confidence interval
// from Student's t distribution (Boost.Math) with n - 1 degrees of freedom.

#include <cstddef>
#include <vector>

namespace gbesim {

struct SampleSummary {
  std::size_t n = 0;
  double mean = 0;
  double stddev = 0;           // sample standard deviation (n - 1 denominator)
  double ci95_half_width = 0;  // NaN when n < 2
};

SampleSummary summarize(const std::vector<double>& samples);
// Quantile of Student's t distribution, p in (0, 1), degrees of freedom > 0.
double student_t_quantile(double p, double degrees_of_freedom);
double median(std::vector<double> samples);

}  // namespace gbesim
