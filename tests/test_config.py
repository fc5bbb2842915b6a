from pathlib import Path

import pytest
from pydantic import ValidationError

from vera_core.config import VeraSettings


def test_defaults_are_documented_and_sensible(monkeypatch):
    monkeypatch.delenv("VERA_DATA_DIR")  # conftest points the default at a throwaway store
    settings = VeraSettings()
    assert settings.data_dir == Path("data/store")
    assert settings.chunk_tokens <= settings.embed_max_tokens == 256
    assert VeraSettings.model_fields
    for name, field in VeraSettings.model_fields.items():
        assert field.description, f"setting {name} has no description"


def test_environment_variables_override_defaults(monkeypatch, tmp_path):
    monkeypatch.setenv("VERA_DATA_DIR", str(tmp_path))
    monkeypatch.setenv("VERA_CHUNK_TOKENS", "128")
    monkeypatch.setenv("VERA_FACTS_ENABLED", "false")
    settings = VeraSettings()
    assert settings.data_dir == tmp_path and settings.chunk_tokens == 128 and not settings.facts_enabled


def test_unknown_or_invalid_settings_are_rejected(monkeypatch):
    with pytest.raises(ValidationError):
        VeraSettings(chunk_size=10)
    monkeypatch.setenv("VERA_CHUNK_TOKENS", "1000")
    with pytest.raises(ValidationError):
        VeraSettings()


def test_team_mode_is_one_named_property_read_everywhere():
    """Whether the store is a team's is `settings.team_store`; `database_url` is read only to open the catalog (and by
    `vera serve`, which needs both servers' addresses), never to decide a mode."""
    import re
    assert VeraSettings(database_url="postgresql://u@h/v").team_store and not VeraSettings().team_store
    package = Path(__file__).resolve().parents[1] / "vera_core"
    deciding = re.compile(r"\b(?:if|and|or|not)\s+[\w.]*database_url\b|database_url\s+(?:and|or|else)\b")
    found = [p.relative_to(package).as_posix() for p in package.rglob("*.py")
             if p.name not in ("config.py", "cluster.py") and deciding.search(p.read_text(encoding="utf-8"))]
    assert found == [], found
