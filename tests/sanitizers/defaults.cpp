// Built into every executable of a sanitizer build (-DGBESIM_SANITIZE=...): the options the
// sanitizer runtimes ask for at start-up, so that the test suite needs no environment. A finding
// ends the process with an error, so it fails its test. No leak is suppressed, not even in the
// system libraries (Qt, fontconfig): none has been found there.

extern "C" const char* __asan_default_options() {
  return "detect_leaks=1:halt_on_error=1:strict_string_checks=1";
}

extern "C" const char* __ubsan_default_options() {
  return "print_stacktrace=1:halt_on_error=1";
}
