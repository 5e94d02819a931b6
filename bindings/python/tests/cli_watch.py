"""`ocellus watch` started for a test: returned once it says it is listening (`--ready-fd`), so
nothing the test plugs or changes after can be missed, and no sleep stands in for that."""

import os
import subprocess


def start_watch(cli, *args, **popen):
    """`cli ARGS --ready-fd FD`, its JSON lines on `stdout`; fails when it ends before it is ready."""
    ready_read, ready_write = os.pipe()
    watcher = subprocess.Popen([cli, *args, "--ready-fd", str(ready_write)], pass_fds=(ready_write,),
                               stdout=subprocess.PIPE, text=True, **popen)
    os.close(ready_write)
    with os.fdopen(ready_read) as ready:
        assert ready.readline() == "ready\n", "the watch ended before it was listening"
    return watcher
