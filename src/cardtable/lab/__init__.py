"""The lab: measuring agents and games (arena, benchmarks)."""
