import sys

from gmserver.cli import main

sys.exit(main())
