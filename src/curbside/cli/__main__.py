"""`python -m curbside.cli`."""

from curbside.cli import main

main()
