import ShrinkFuzzSupport

FuzzDriver.run(AVIFThumbnailHarness.fuzz)
