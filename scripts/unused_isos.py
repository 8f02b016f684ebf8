#!/usr/bin/env python3
"""make isos: recompute the isomorphisms each rule file never uses
(cocci/isos.unused); the work is chain/unused_isos.py's.

    unused_isos.py [--check] [-j N] [RULE...]
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from chain import unused_isos  # noqa: E402

if __name__ == "__main__":
    sys.exit(unused_isos.main())
