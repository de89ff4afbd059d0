"""``python -m labeler.samples [PATH]`` regenerates the shipped sample textbook."""

import sys

from labeler.data import SAMPLE_BOOK, data_file
from labeler.samples.book import write_sample_book

target = sys.argv[1] if len(sys.argv) > 1 else data_file(SAMPLE_BOOK)
write_sample_book(target)
print(f"wrote {target}")
