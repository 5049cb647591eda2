"""`python -m wrapper cc|c++ ARGS...`: idiom-cc / idiom-c++ without the console scripts."""

import sys

from wrapper.main import main

sys.exit(main())
