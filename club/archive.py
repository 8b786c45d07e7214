"""The whole night as one zip: every result's `.mat` record and standings.csv."""
from __future__ import annotations

import io
import zipfile

from club.report import record_name, standings_csv
from club.state.model import ClubState


def night_archive(state: ClubState) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for result in state.results.values():
            archive.writestr(record_name(result), result.record)
        archive.writestr("standings.csv", standings_csv(state))
    return buffer.getvalue()
