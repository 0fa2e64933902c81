"""Worker processes that import the installed package, whatever the current directory.

Batch and web workers fork from multiprocessing's forkserver, which Python starts as `python -c ...`: its
`sys.path` then begins with the current directory, so the modules it preloads come from a folder named
`reasoner` there (a clone, when the command runs from its root) instead of the installed package, and the
workers forked from it inherit them (`FileNotFoundError: .../reasoner/vocabulary.yaml`). Python 3.11's
forkserver is given the parent's `sys.path` but does not use it; PYTHONSAFEPATH keeps the directory out.
"""
from __future__ import annotations

import os
from typing import Any


def start_forkserver(context: Any, preload: list[str]) -> None:
    """Start `context`'s forkserver (if it is not running) preloading `preload`, without the current directory
    on its path."""
    from multiprocessing import forkserver

    context.set_forkserver_preload(preload)
    previous = os.environ.get("PYTHONSAFEPATH")
    os.environ["PYTHONSAFEPATH"] = "1"
    try:
        forkserver.ensure_running()
    finally:
        if previous is None:
            del os.environ["PYTHONSAFEPATH"]
        else:
            os.environ["PYTHONSAFEPATH"] = previous
