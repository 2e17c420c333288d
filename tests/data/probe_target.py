"""Functions the probe tests call through a probe worker: one kills the process on one value, one hangs on one."""

import os
import time


def crash_on_zero(x):
    if type(x) is int and x == 0:
        os.abort()
    return x


def hang_on_two(x):
    if type(x) is int and x == 2:
        time.sleep(30)
    return x
