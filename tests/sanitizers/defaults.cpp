// Built into every executable of a sanitizer build (-DGBESIM_SANITIZE=...): the options and leak
// suppressions the sanitizer runtimes ask for at start-up, so that the test suite needs no
// environment. A finding ends the process with an error, so it fails its test.

extern "C" const char* __asan_default_options() {
  return "detect_leaks=1:halt_on_error=1:strict_string_checks=1";
}

extern "C" const char* __ubsan_default_options() {
  return "print_stacktrace=1:halt_on_error=1";
}

// Leaks inside system libraries gbesim links but does not own (Qt's fonts and platform plugin).
// A leak in gbesim's own code is never suppressed here.
extern "C" const char* __lsan_default_suppressions() {
  return "leak:libfontconfig\n"
         "leak:libQt6Core\n"
         "leak:libQt6Gui\n"
         "leak:libQt6Widgets\n"
         "leak:libxkbcommon\n"
         "leak:libdbus\n";
}
