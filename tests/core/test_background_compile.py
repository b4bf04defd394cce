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
    assert "os.nice(10)" in started[0][2]   # below the user's own next commands
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
