"""A fake ThinkingBox-style tool server for tests and benchmarks (`python -m fake_tb_server`)."""
