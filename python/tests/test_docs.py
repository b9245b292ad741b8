"""docs/python.md runs as written: its ```python blocks, in order, in one namespace, from a
directory where the repository's experiments/ are at the relative path the page uses."""
import contextlib
import io
import os
import re

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def python_blocks(path):
    with open(path) as f:
        return re.findall(r"```python\n(.*?)```", f.read(), flags=re.S)


def test_the_python_page_runs_as_written(tmp_path, monkeypatch):
    blocks = python_blocks(os.path.join(ROOT, "docs", "python.md"))
    assert len(blocks) >= 8
    os.symlink(os.path.join(ROOT, "experiments"), tmp_path / "experiments")
    monkeypatch.chdir(tmp_path)
    namespace = {}
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        for number, block in enumerate(blocks, 1):
            try:
                exec(compile(block, f"docs/python.md block {number}", "exec"), namespace)
            except Exception as e:
                raise AssertionError(f"docs/python.md block {number} failed: {e!r}\n{block}") from e
    text = printed.getvalue()
    assert "router.depht: unknown key (did you mean 'depth'?)" in text  # the error example's message
    assert (tmp_path / "out" / "dragonfly-python" / "routing.png").stat().st_size > 10000
    df = namespace["df"]
    assert len(df) == 20 and set(df["routing.type"]) == {"dragonfly_minimal", "dragonfly_ugal"}
    assert namespace["search"]["saturation"]["half_width_95"] >= 0
