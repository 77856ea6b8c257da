#ifndef CSHRINK_FUZZ_DRIVER_H
#define CSHRINK_FUZZ_DRIVER_H

#include <stddef.h>
#include <stdint.h>

/// Tests one input; returns 0 (or -1 to keep the input out of the corpus), as libFuzzer's callbacks do.
typedef int (*ShrinkFuzzCallback)(const uint8_t *data, size_t size);

/// Runs libFuzzer with this process's command line (`-flags`, corpus directories, or input files to run
/// once each), calling `callback` for every input. Returns libFuzzer's exit status.
int ShrinkFuzzRunDriver(int argc, char **argv, ShrinkFuzzCallback callback);

#endif
