"""A first command's compile in the background: one at a time, never left behind."""


def test_one_background_warmup_at_a_time_and_a_left_behind_marker_expires(tmp_path,
                                                                         monkeypatch):
    import os
    import subprocess
    import tempfile
    import time

    from mathhammer.core import background_compile as precompile

    started = []
    monkeypatch.setattr(tempfile, "gettempdir", lambda: str(tmp_path))
    monkeypatch.setattr(subprocess, "Popen", lambda command, **kw: started.append(command))
    assert precompile.compile_in_background(["40k"]) is True
    assert precompile.compile_in_background(["40k"]) is False     # one is compiling
    assert len(started) == 1 and started[0][-1] == "40k"
    assert "lower_priority()" in started[0][2]   # below the user's own next commands
    marker, = tmp_path.glob("mathhammer-warmup-*.running")
    old = time.time() - precompile.BACKGROUND_MARKER_AGE - 10
    os.utime(marker, (old, old))                                 # its process died
    assert precompile.compile_in_background(["40k"]) is True and len(started) == 2

    def cannot_start(command, **kw):
        raise OSError("no processes here")

    marker.unlink()
    monkeypatch.setattr(subprocess, "Popen", cannot_start)
    assert precompile.compile_in_background(["40k"]) is False
    assert not list(tmp_path.glob("mathhammer-warmup-*.running"))  # not left behind


def test_a_background_process_yields_to_other_sessions():
    """Its nice value, and on Linux with autogroups its session's group's: a nice value
    alone does not yield to another session (lower_priority's docstring)."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    from mathhammer.core.background_compile import LOWEST_PRIORITY

    script = ("from mathhammer.core.background_compile import lower_priority; import os\n"
              "lower_priority()\n"
              "print(os.nice(0) if hasattr(os, 'nice') else 'none')\n"
              "print(os.environ['MATHHAMMER_LOWEST_PRIORITY'])\n"
              "try: print(open('/proc/self/autogroup').read().split()[-1])\n"
              "except OSError: print('none')\n")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          start_new_session=True, timeout=60, check=True)
    nice, lowered, group = done.stdout.split()
    assert lowered == "1"   # the processes it starts lower themselves (helper_compile._CHILD)
    if hasattr(os, "nice"):
        assert int(nice) == LOWEST_PRIORITY
    if Path("/proc/self/autogroup").is_file():
        assert int(group) == LOWEST_PRIORITY


def test_a_helpers_process_started_by_a_background_compile_lowers_itself():
    from mathhammer.core import helper_compile
    from mathhammer.core.background_compile import LOWERED

    child = helper_compile._CHILD
    assert "os.environ.get(LOWERED) == \"1\"" in child and "lower_priority()" in child
    assert LOWERED == "MATHHAMMER_LOWEST_PRIORITY"
