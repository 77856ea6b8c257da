import ShrinkFuzzSupport

FuzzDriver.run(ServerURLHarness.fuzz)
