#!/usr/bin/env python3
"""Holds the lock of an `llcheck report` output folder, as a second report run would see it.

usage: report-hold-lock.py DIR [SECONDS]   takes DIR/.llcheck-report.lock (flock, as llcheck does),
                                           writes a holder line into it, and returns once the lock
                                           is held; a child process keeps it for SECONDS (default
                                           120) or until released.
       report-hold-lock.py --release DIR   releases it and waits for the child to end.
"""
import fcntl
import os
import socket
import sys
import time

LOCK = ".llcheck-report.lock"


def main():
    if sys.argv[1] == "--release":
        folder = sys.argv[2]
        open(os.path.join(folder, ".test-release"), "w").close()
        deadline = time.time() + 60
        while os.path.exists(os.path.join(folder, ".test-held")) and time.time() < deadline:
            time.sleep(0.05)
        return 0 if not os.path.exists(os.path.join(folder, ".test-held")) else 1
    folder = sys.argv[1]
    seconds = float(sys.argv[2]) if len(sys.argv) > 2 else 120
    for name in (".test-release", ".test-held"):
        if os.path.exists(os.path.join(folder, name)):
            os.remove(os.path.join(folder, name))
    read, write = os.pipe()
    if os.fork() > 0:
        os.close(write)
        ok = os.read(read, 1) == b"1"  # the child says when it holds the lock
        return 0 if ok else 1
    # The child: holds the lock, then lets go when told to (or after SECONDS).
    os.close(read)
    os.setsid()
    fd = os.open(os.path.join(folder, LOCK), os.O_RDWR | os.O_CREAT, 0o644)
    fcntl.flock(fd, fcntl.LOCK_EX)
    os.ftruncate(fd, 0)
    os.write(fd, f"pid {os.getpid()} on host {socket.gethostname()}, started "
                 f"{time.strftime('%Y-%m-%dT%H:%M:%SZ', time.gmtime())}\n".encode())
    open(os.path.join(folder, ".test-held"), "w").close()
    os.write(write, b"1")
    os.close(write)
    deadline = time.time() + seconds
    while not os.path.exists(os.path.join(folder, ".test-release")) and time.time() < deadline:
        time.sleep(0.05)
    os.remove(os.path.join(folder, ".test-held"))
    if os.path.exists(os.path.join(folder, ".test-release")):
        os.remove(os.path.join(folder, ".test-release"))
    os._exit(0)


if __name__ == "__main__":
    sys.exit(main())
