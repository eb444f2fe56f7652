"""Run pytest and end the process with its exit status, skipping the interpreter's teardown.

The Ray tests start and stop Ray in the pytest process several times and use pyarrow's S3 client; both leave
native threads behind whose teardown at interpreter exit is known to crash now and then (ray-project/ray
#31145, apache/arrow#38352): a CI run once passed every test, printed its summary and then ended with a
segmentation fault (exit 139). Once pytest has reported, nothing is left to do, so the process ends at once
with pytest's own verdict. The tashkalar commands the tests start run in processes of their own and exit
normally, so a crash of the product at exit still fails them.

    python scripts/run_pytest.py [pytest arguments]
"""

import os
import sys

import pytest

if __name__ == "__main__":
    status = int(pytest.main(sys.argv[1:]))
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(status)
