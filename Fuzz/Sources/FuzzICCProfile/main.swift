import ShrinkFuzzSupport

FuzzDriver.run(ICCProfileHarness.fuzz)
