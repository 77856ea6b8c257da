#include "CShrinkFuzzDriver.h"

// Provided by libclang_rt.fuzzer, which -sanitize=fuzzer links. Defining our own `main` (the Swift
// executable's) keeps the archive's FuzzerMain.o, and its `main`, out of the link.
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));

int ShrinkFuzzRunDriver(int argc, char **argv, ShrinkFuzzCallback callback) {
    return LLVMFuzzerRunDriver(&argc, &argv, callback);
}
