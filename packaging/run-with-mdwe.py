#!/usr/bin/env python3
"""Runs a command with memory-deny-write-execute turned on, the kernel's counterpart of
systemd's MemoryDenyWriteExecute=: no memory may be writable and executable, and none may
become executable later. Kept across execve. Exits 77 when the kernel lacks it (< 6.3).

    run-with-mdwe.py COMMAND [ARG...]
"""
import ctypes
import os
import sys

PR_SET_MDWE = 65
PR_MDWE_REFUSE_EXEC_GAIN = 1

if len(sys.argv) < 2:
    sys.exit(__doc__)
if ctypes.CDLL(None, use_errno=True).prctl(PR_SET_MDWE, PR_MDWE_REFUSE_EXEC_GAIN, 0, 0, 0) != 0:
    sys.exit(77)
os.execvp(sys.argv[1], sys.argv[1:])
