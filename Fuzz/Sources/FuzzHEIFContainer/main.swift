import ShrinkFuzzSupport

FuzzDriver.run(HEIFContainerHarness.fuzz)
