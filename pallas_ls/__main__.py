"""`python -m pallas_ls` is `pallas-ls`."""

import os
import sys

# `python -m` puts the working directory first on sys.path.  An editor starts the server in the
# user's workspace, whose modules (a `types.py`, a `logging.py`, jax's own source tree...) must not
# shadow the ones pallas-ls imports.  pallas_ls itself is already imported by now.
if sys.path and sys.path[0] in ("", os.getcwd()):
    del sys.path[0]

from .cli import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main())
