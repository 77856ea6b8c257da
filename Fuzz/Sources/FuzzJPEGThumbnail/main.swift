import ShrinkFuzzSupport

FuzzDriver.run(JPEGThumbnailHarness.fuzz)
