import ShrinkFuzzSupport

FuzzDriver.run(PNGThumbnailHarness.fuzz)
