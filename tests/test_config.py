from pathlib import Path

import pytest
from pydantic import ValidationError

from vera_core.config import VeraSettings


def test_defaults_are_documented_and_sensible(monkeypatch):
    monkeypatch.delenv("VERA_DATA_DIR")  # conftest points the default at a throwaway store
    settings = VeraSettings()
    assert settings.data_dir == Path("data/store")
    assert settings.chunk_tokens <= settings.embed_max_tokens == 256
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
