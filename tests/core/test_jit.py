"""``core.jit.clear_stale_caches``: numba's cache files go when any source file changes."""

from mathhammer.core.jit import clear_stale_caches


def make_package(root):
    (root / "a").mkdir(parents=True)
    (root / "a" / "kernels.py").write_text("x = 1\n")
    (root / "b.py").write_text("y = 2\n")
    cache = root / "a" / "__pycache__"
    cache.mkdir()
    (cache / "kernels.run-1.py311.nbi").write_text("index")
    (cache / "kernels.run-1.py311.1.nbc").write_text("code")
    (cache / "kernels.cpython-311.pyc").write_text("bytecode")
    return cache


def test_caches_survive_while_sources_are_unchanged(tmp_path):
    cache = make_package(tmp_path)
    clear_stale_caches(tmp_path)               # first sight: no stamp, caches cleared
    (cache / "kernels.run-1.py311.nbi").write_text("index")
    assert clear_stale_caches(tmp_path) is False
    assert (cache / "kernels.run-1.py311.nbi").exists()


def test_a_change_in_another_module_clears_every_cache(tmp_path):
    cache = make_package(tmp_path)
    clear_stale_caches(tmp_path)
    (cache / "kernels.run-1.py311.nbi").write_text("index")
    (cache / "kernels.run-1.py311.1.nbc").write_text("code")
    (tmp_path / "b.py").write_text("y = 3\n")   # a helper elsewhere changed
    assert clear_stale_caches(tmp_path) is True
    assert sorted(p.name for p in cache.iterdir()) == ["kernels.cpython-311.pyc"]
