import ShrinkFuzzSupport

FuzzDriver.run(HEIFThumbnailHarness.fuzz)
