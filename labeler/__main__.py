"""``python -m labeler`` is the same as the ``labeler`` console script."""

import sys

from labeler.cli import main

sys.exit(main())
