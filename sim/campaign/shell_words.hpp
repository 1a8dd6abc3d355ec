#pragma once
// Text for a POSIX shell: a word quoted when it needs to be (the Slurm scripts, and the commands
// a sweep tells people to type), and a command line run through /bin/sh for its output (sbatch).

#include <string>

namespace gbesim {

// `w` as one word for a POSIX shell, in single quotes unless it is made only of characters the
// shell takes literally.
std::string shell_word(const std::string& w);

// Runs a command line through /bin/sh and returns its standard output (and error), without the
// trailing newlines, or throws std::runtime_error with it when the command fails.
std::string command_output(const std::string& command);

}  // namespace gbesim
