"""``python -m lfverify``: the command line (:func:`lfverify.app.main`)."""

import sys

from lfverify.app import main

sys.exit(main())
