import sys

from ireesht.cli import main

sys.exit(main())
