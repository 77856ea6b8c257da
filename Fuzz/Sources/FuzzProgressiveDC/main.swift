import ShrinkFuzzSupport

FuzzDriver.run(ProgressiveDCHarness.fuzz)
