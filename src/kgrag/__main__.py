"""`python -m kgrag` runs the command line."""

from kgrag.cli import main

main()
