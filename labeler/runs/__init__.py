"""Model runs: tolerant answer parsing, the runner (concurrency, retries, resume), cost."""
