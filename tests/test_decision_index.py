"""The decision index (`docs/decisions/README.md`) lists every note once, with the note's own Status line.

A note's Status line starts with `accepted`, `amended by`, `superseded by` or `folded into` (the README says what
each means). Every note a status names by link exists, and `amended by` and `superseded by` name at least one,
so "which note holds now" can always be followed to a file.
"""

from __future__ import annotations

import re
from pathlib import Path

DECISIONS = Path(__file__).resolve().parents[1] / "docs" / "decisions"
NOTE_NAME = re.compile(r"^\d{4}-[a-z0-9-]+\.md$")
STATUS_LINE = re.compile(r"^Status: (.+)$", re.MULTILINE)
STATES = ("accepted", "amended by ", "superseded by ", "folded into ")
ROW = re.compile(r"^\| \[(\d{4})\]\(([^)]+)\) \| (.+) \| (.+) \|$")
LINK = re.compile(r"\[[^\]]*\]\(([^)]+)\)")


def _notes() -> list[Path]:
    return sorted(path for path in DECISIONS.glob("*.md") if path.name != "README.md")


def _status(note: Path) -> str | None:
    text = note.read_text(encoding="utf-8")
    match = STATUS_LINE.search(text)
    return match.group(1).strip() if match else None


def _rows() -> list[tuple[str, str, str]]:
    rows = []
    for line in (DECISIONS / "README.md").read_text(encoding="utf-8").splitlines():
        match = ROW.match(line)
        if match:
            number, target, _summary, status = match.groups()
            rows.append((number, target, status.strip()))
    return rows


def test_decision_files_are_named_by_number_and_slug() -> None:
    assert [note.name for note in _notes() if not NOTE_NAME.match(note.name)] == []


def test_every_decision_has_a_status_line_in_a_known_state() -> None:
    missing = [note.name for note in _notes() if _status(note) is None]
    assert missing == []
    unknown = {note.name: _status(note) for note in _notes() if not str(_status(note)).startswith(STATES)}
    assert unknown == {}


def test_every_decision_has_exactly_one_index_row() -> None:
    targets = [target for _number, target, _status in _rows()]
    names = [note.name for note in _notes()]
    assert sorted(set(names) - set(targets)) == [], "notes without a row in docs/decisions/README.md"
    assert sorted(set(targets) - set(names)) == [], "rows for notes that do not exist"
    assert sorted(target for target in set(targets) if targets.count(target) > 1) == []
    assert [(number, target) for number, target, _status in _rows() if not target.startswith(number + "-")] == []


def test_the_index_shows_each_notes_status_line() -> None:
    statuses = {note.name: _status(note) for note in _notes()}
    differ = {target: (status, statuses[target]) for _n, target, status in _rows() if statuses.get(target) != status}
    assert differ == {}


def test_every_note_a_status_names_exists() -> None:
    broken = {}
    for note in _notes():
        status = _status(note) or ""
        targets = LINK.findall(status)
        if status.startswith(("amended by ", "superseded by ")) and not any(NOTE_NAME.match(t) for t in targets):
            broken[note.name] = "names no note"
        for target in targets:
            if not (DECISIONS / target).resolve().is_file():
                broken[note.name] = target
    assert broken == {}


def test_a_superseded_or_amended_note_is_named_by_its_successor() -> None:
    """Superseding is explicit on both sides: the later note names the one it replaces, by number."""
    silent = []
    for note in _notes():
        status = _status(note) or ""
        if not status.startswith(("amended by ", "superseded by ")):
            continue
        head = status.split(";")[0]
        for target in LINK.findall(head):
            if NOTE_NAME.match(target) and not re.search(rf"\b{note.name[:4]}\b", (DECISIONS / target).read_text()):
                silent.append((note.name, target))
    assert silent == []
