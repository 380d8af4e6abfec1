"""Kept state (generator/core/statefile.py): a file is vouched for only when this machine's
key hashes its name and content as written."""
from __future__ import annotations

import json
import logging
import stat

from generator.core.statefile import KEY, read_vouched, write_state


def test_a_file_written_here_is_vouched_for_and_its_key_is_private(tmp_path):
    path = tmp_path / "state.json"
    write_state(path, {"fingerprint": "f", "entries": {"a": [1, "é"]}}, "then")
    assert read_vouched(path, "then") == ({"fingerprint": "f", "entries": {"a": [1, "é"]}}, True)
    key = tmp_path / KEY
    assert len(key.read_bytes()) == 32
    assert stat.S_IMODE(key.stat().st_mode) == 0o600


def test_a_file_edited_after_writing_or_of_another_key_or_name_is_not_vouched_for(tmp_path):
    path = tmp_path / "state.json"
    write_state(path, {"fingerprint": "f", "entries": {"a": 1}}, "then")
    written = path.read_bytes()
    path.write_bytes(written.replace(b'"a":1', b'"a":2'))  # the content, the hash as it was
    assert read_vouched(path, "then") == ({"fingerprint": "f", "entries": {"a": 2}}, False)
    other = tmp_path / "other.json"  # the same bytes under another name
    other.write_bytes(written)
    assert read_vouched(other, "then")[1] is False
    path.write_bytes(written)
    assert read_vouched(path, "then")[1] is True
    (tmp_path / KEY).write_bytes(b"\1" * 32)  # another machine's key
    assert read_vouched(path, "then")[1] is False
    doc = json.loads(written)
    del doc["mac"]
    path.write_text(json.dumps(doc), encoding="utf-8")  # no hash
    assert read_vouched(path, "then") == ({"fingerprint": "f", "entries": {"a": 1}}, False)


def test_with_no_key_a_new_one_is_made_and_nothing_before_it_is_vouched_for(tmp_path):
    path = tmp_path / "state.json"
    write_state(path, {"x": 1}, "then")
    (tmp_path / KEY).unlink()
    assert read_vouched(path, "then") == ({"x": 1}, False)
    assert len((tmp_path / KEY).read_bytes()) == 32


def test_a_corrupt_key_is_said_and_replaced_and_nothing_is_vouched_for(tmp_path, caplog):
    path = tmp_path / "state.json"
    write_state(path, {"x": 1}, "then")
    key = tmp_path / KEY
    key.write_bytes(key.read_bytes()[:31])
    with caplog.at_level(logging.WARNING):
        assert read_vouched(path, "then") == ({"x": 1}, False)
    assert f"cannot use the local key {key} (31 bytes, not 32): a new one is made" in caplog.text
    assert len(key.read_bytes()) == 32
    write_state(path, {"x": 1}, "then")
    assert read_vouched(path, "then") == ({"x": 1}, True)
