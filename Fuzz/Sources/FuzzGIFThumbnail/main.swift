import ShrinkFuzzSupport

FuzzDriver.run(GIFThumbnailHarness.fuzz)
