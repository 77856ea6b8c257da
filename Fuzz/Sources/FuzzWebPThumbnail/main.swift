import ShrinkFuzzSupport

FuzzDriver.run(WebPThumbnailHarness.fuzz)
