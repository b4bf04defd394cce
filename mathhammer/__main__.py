"""``python -m mathhammer`` runs the command line."""

import sys

from mathhammer.cli import command_line

sys.exit(command_line())
