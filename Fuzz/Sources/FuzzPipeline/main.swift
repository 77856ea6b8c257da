import ShrinkFuzzSupport

FuzzDriver.run(PipelineHarness.fuzz)
