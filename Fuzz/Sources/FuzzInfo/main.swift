import ShrinkFuzzSupport

FuzzDriver.run(InfoHarness.fuzz)
