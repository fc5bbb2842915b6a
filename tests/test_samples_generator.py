"""The bundled samples are what their generator writes (scripts/make_samples.py and scripts/sample_docs/, split by
document): generated again, every file is byte for byte the committed one, and the generator's self-check passes."""

from __future__ import annotations

import subprocess
import sys

from tests.conftest import ROOT, SAMPLES


def test_the_generator_writes_the_committed_samples(tmp_path):
    done = subprocess.run([sys.executable, str(ROOT / "scripts" / "make_samples.py"), "--out", str(tmp_path)],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    written = sorted(p.name for p in tmp_path.iterdir())
    assert "Aurora_Annual_Report_2024.pdf" in written and "ground_truth.json" in written and len(written) >= 10
    for name in written:
        assert (tmp_path / name).read_bytes() == (SAMPLES / name).read_bytes(), f"{name} differs from data/samples"
