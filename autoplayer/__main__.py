import sys

from autoplayer.cli import main

sys.exit(main())
