// The values gbesim sweep --slurm copies into #SBATCH lines are held to sbatch's grammar: what
// sbatch takes passes, anything else (a newline that would add a directive of its own, a
// semicolon, a space) is refused with the forms it takes.

#include <gtest/gtest.h>

#include "sim/campaign/slurm_options.hpp"

namespace gbesim {
namespace {

TEST(SlurmOptions, EveryTimeFormSbatchTakesIsAccepted) {
  // sbatch(1), --time: minutes, minutes:seconds, hours:minutes:seconds, days-hours,
  // days-hours:minutes, days-hours:minutes:seconds; and no limit.
  for (const char* time : {"0", "90", "30:00", "1:00:00", "2-12", "2-12:30", "2-12:30:15",
                           "UNLIMITED", "INFINITE", "unlimited"})
    EXPECT_EQ(slurm_time_problem(time), std::nullopt) << time;
}

TEST(SlurmOptions, ATimeOutsideSbatchsGrammarIsRefused) {
  for (const char* time : {"", "x;y", "1:00:00\n#SBATCH --mem=1", "1 h", "1:2:3:4", "-5", "2-",
                           "2-1-3", "1::0", ":30", "1.5", "1h", "2-1:2:3:4", "1234567890"})
    EXPECT_NE(slurm_time_problem(time), std::nullopt) << time;
  EXPECT_EQ(*slurm_time_problem("x;y"),
            "expected a Slurm time limit: minutes, minutes:seconds, hours:minutes:seconds, "
            "days-hours, days-hours:minutes, days-hours:minutes:seconds, UNLIMITED or INFINITE "
            "(e.g. 90, 1:30:00, 2-12), got \"x;y\"");
  // A control character is shown escaped, not printed.
  EXPECT_NE(slurm_time_problem("1\n#SBATCH")->find("got \"1\\n#SBATCH\""), std::string::npos);
}

TEST(SlurmOptions, APartitionIsACommaSeparatedListOfNames) {
  for (const char* partition : {"batch", "short,long", "gpu-a100.x_2", "a,b,c"})
    EXPECT_EQ(slurm_partition_problem(partition), std::nullopt) << partition;
  for (const char* partition :
       {"", "a b", "batch\n#SBATCH --mem=1", "a,,b", ",a", "a,", "a;b", "a\tb", "$(id)"})
    EXPECT_NE(slurm_partition_problem(partition), std::nullopt) << partition;
  EXPECT_EQ(*slurm_partition_problem("a b"),
            "expected partition names separated by commas, each of letters, digits, '_', '-' "
            "and '.' (e.g. batch or short,long), got \"a b\"");
}

}  // namespace
}  // namespace gbesim
