#ifndef FUZZ_DRIVER_H
#define FUZZ_DRIVER_H

#include <stddef.h>
#include <stdint.h>

/// libFuzzer's driver (in the toolchain's libclang_rt.fuzzer, linked by -sanitize=fuzzer): parses the
/// command line and runs `callback` on each input. A fuzz target's main calls it, because SwiftPM's debug
/// build of an executable names its own `main` (the module's entry point), so libFuzzer's `main` is not used.
int LLVMFuzzerRunDriver(int *_Nonnull argc, char *_Nullable *_Nonnull *_Nonnull argv,
                        int (*_Nonnull callback)(const uint8_t *_Nonnull data, size_t size));

#endif
