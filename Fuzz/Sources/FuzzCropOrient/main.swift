import ShrinkFuzzSupport

FuzzDriver.run(CropOrientHarness.fuzz)
