"""``python -m mathhammer`` runs the command line."""

import sys

from mathhammer.cli import main

sys.exit(main())
