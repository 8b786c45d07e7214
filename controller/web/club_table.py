"""The board's side of the club (issue 36, ../notes/club-contract.md), against its table:
pairing with a hub, the club match a hub assigns (the table's one `MatchChosen`, with both
names, the length, the tournament clock of the hub's minutes and Crawford; its delay is the
rule's 12 s, said in the answer), and each club match's result, kept in the state
directory the moment the match ends, before the table does anything else, until the hub
acknowledges it.

A board takes orders from one hub only, the one that typed the code its display shows (the
phone page's token); "New page links" forgets that hub as it shuts out every phone. The
HTTP side is controller/web/club_door.py; what is kept on disk is club_state.py.

The club match is the table's match while its names and length are the assigned ones: a
person who starts another match at the table (the menu's New match) abandons it, and the
hub may then assign another.
"""
from __future__ import annotations

import asyncio
import hmac
import logging
import secrets
from collections.abc import Callable
from datetime import UTC, datetime
from urllib.parse import parse_qs, urlsplit

from controller.engine.match import Match
from controller.engine.match_settings import MatchSettings
from controller.events import MatchChosen, Refused
from controller.json_value import JsonObject
from controller.show.content import Prompt
from controller.table import Table
from controller.web.club_state import MAX_HUB_TEXT, Assignment, ClubMatch, ClubRefusal, ClubStore, PairedHub, \
    check_text
from controller.web.record import dice_record

log = logging.getLogger("bgboard")

KEY_BYTES = 32  # a hub's key: 43 url-safe characters
WRONG_CODE = "refused: wrong pairing code: type the code the board's display shows"
NOT_PAIRED = "refused: not the club hub this board is paired to (pair it with the code its display shows)"


def utc_now() -> datetime:
    return datetime.now(UTC)


def code_of(given: str) -> str:
    """The pairing code as a director gives it: the token, or the board's whole page link."""
    if "token=" in given:
        return parse_qs(urlsplit(given.strip()).query).get("token", [""])[0]
    return given.strip()


class ClubTable:
    """One board's club (see the module docstring). `code()` is the pairing code now (the
    page's token), `live()` the spectators' snapshot, `wall()` the time a result is dated."""

    def __init__(self, table: Table, store: ClubStore, *, board_name: str, code: Callable[[], str | None],
                 live: Callable[[], JsonObject], wall: Callable[[], datetime] = utc_now) -> None:
        self.table, self.store, self.board_name = table, store, board_name
        self._code, self._live, self._wall = code, live, wall
        self._banner = False
        table.on_step(self.stepped)
        table.on_links_revoked(self.revoked)
        self.stepped()  # a match that ended before a restart is kept now

    # -- pairing ---------------------------------------------------------------------------
    def code(self) -> str | None:
        """The code a hub pairs with now (what the display's pairing screen shows)."""
        return self._code()

    def pair(self, body: object) -> JsonObject:
        """`POST /club/v1/pair`: the hub that knows the code gets a (new) key."""
        if not isinstance(body, dict):
            raise ClubRefusal(400, "the pairing must be a JSON object")
        code = self._code()
        given = body.get("code")
        if not isinstance(given, str) or code is None or \
                not hmac.compare_digest(code_of(given).encode(), code.encode()):
            raise ClubRefusal(403, WRONG_CODE)
        hub_id = check_text(body.get("hub_id"), "hub_id", MAX_HUB_TEXT)
        hub_name = check_text(body.get("hub_name"), "hub_name", MAX_HUB_TEXT)
        paired = self.store.hub
        if paired is not None and paired.hub_id != hub_id:
            raise ClubRefusal(409, f"refused: this board is paired to another club hub ({paired.hub_name}): "
                                   "New page links on the board frees it")
        self.store.pair(PairedHub(hub_id, hub_name, secrets.token_urlsafe(KEY_BYTES)))
        log.info("club: paired to hub %r", hub_name)
        assert self.store.hub is not None
        return {"board_id": self.store.board_id, "board_name": self.board_name, "hub_key": self.store.hub.hub_key}

    def authorize(self, authorization: str | None, hub_id: str | None) -> None:
        """ClubRefusal 403 unless the call carries the paired hub's id and key."""
        hub = self.store.hub
        key = (authorization or "").removeprefix("Bearer ")
        if hub is None or hub_id is None or not (authorization or "").startswith("Bearer ") or \
                not hmac.compare_digest(hub_id.encode(), hub.hub_id.encode()) or \
                not hmac.compare_digest(key.encode(), hub.hub_key.encode()):
            raise ClubRefusal(403, NOT_PAIRED)

    def revoked(self) -> None:
        """"New page links": the hub is forgotten with the phones."""
        if self.store.hub is not None:
            log.info("club: New page links: hub %r forgotten", self.store.hub.hub_name)
            try:
                self.store.pair(None)
            except OSError as exc:
                log.error("club: cannot forget the hub: %s", exc.strerror or exc)

    # -- the calls -------------------------------------------------------------------------
    def status(self) -> JsonObject:
        club = self._club_match()
        return {"board_id": self.store.board_id, "board_name": self.board_name,
                "assignment": None if club is None else club.assignment.to_json(),
                "playing": self.playing(), "live": self._live()}

    def assign(self, body: object) -> JsonObject:
        """`POST /club/v1/assign`: a New match with the hub's names, length, clock and Crawford."""
        assignment = Assignment.parse(body)
        club = self._club_match()
        if club is not None and club.assignment.match_id == assignment.match_id and club.state != "abandoned":
            return {"accepted": True, **self._clock(club.assignment)}  # the same again: nothing changes
        # one abandoned here (a New match at the table) the hub sends again: it starts again
        if club is not None and club.state == "playing":
            raise ClubRefusal(409, f"refused: club match {club.assignment.match_id!r} is not finished on this board")
        now = self.table.clock()
        refused = [e for e in self.table.dispatch(MatchChosen(self._match(assignment), now))
                   if isinstance(e, Refused)]
        if refused:
            raise ClubRefusal(409, f"refused: {refused[0].reason}")
        self.store.keep_match(ClubMatch(assignment))
        log.info("club: match %r assigned: %s (white) - %s (black), %d points", assignment.match_id,
                 assignment.white, assignment.black, assignment.length)
        self.table.show_banner(Prompt.of("club_seats", white_name=assignment.white, black_name=assignment.black))
        self._banner = True
        return {"accepted": True, **self._clock(assignment)}

    def playing(self) -> bool:
        """Whether a club match is being played at the table now."""
        club = self._club_match()
        return club is not None and club.state == "playing"

    def results(self) -> JsonObject:
        return {"results": list(self.store.results)}

    def ack(self, body: object) -> JsonObject:
        if not isinstance(body, dict):
            raise ClubRefusal(400, "the acknowledgement must be a JSON object")
        match_id = check_text(body.get("match_id"), "match_id", MAX_HUB_TEXT)
        return {"known": self.store.acknowledge(match_id)}

    # -- the club match at the table -----------------------------------------------------------
    def _match(self, a: Assignment) -> Match:
        """The assigned match, with the table's own way of ending a turn and its dice; the
        board's tournament clock when the hub asks for a clock (see `_clock`)."""
        now = self.table.controller.status().match.settings
        return Match.new(MatchSettings(length=a.length, crawford=a.crawford, confirm=now.confirm,
                                       clock="off" if a.clock is None else "tournament", dice=now.dice,
                                       white=a.white, black=a.black,
                                       clock_minutes=None if a.clock is None else a.clock.minutes))

    @staticmethod
    def _clock(a: Assignment) -> JsonObject:
        """The clock the board runs: the tournament clock (controller/engine/clock.py) with
        the hub's minutes each and the rule's delay (12 s), whatever delay the hub asked for."""
        if a.clock is None:
            return {"clock": None}
        from controller.engine.clock import DELAY_SECONDS

        return {"clock": {"minutes": a.clock.minutes, "delay_s": int(DELAY_SECONDS)}}

    def _is_club_match(self, m: Match, a: Assignment) -> bool:
        s = m.settings
        return (s.white, s.black, s.length) == (a.white, a.black, a.length)

    def _club_match(self) -> ClubMatch | None:
        """The club match as it stands; one replaced at the table is abandoned (kept so)."""
        club = self.store.match
        status = self.table.controller.status()
        set_aside = status.playing_online or status.watching or self.table.controller.state.table.practising is not None
        if club is None or club.state != "playing" or set_aside:
            return club  # online play, watching or a practice sets the match aside: it comes back
        if not self._is_club_match(status.match, club.assignment):
            log.warning("club: match %r was replaced at the table: abandoned", club.assignment.match_id)
            club = ClubMatch(club.assignment, "abandoned")
            self._keep(club)
        return club

    def _keep(self, club: ClubMatch) -> None:
        try:
            self.store.keep_match(club)
        except OSError as exc:
            log.error("club: cannot keep the club match's state: %s", exc.strerror or exc)

    def stepped(self) -> None:
        """After every event the table takes: the seats' banner goes at the first roll, and
        a club match that has just ended has its result kept before anything else happens
        (before the scene and the match's own save)."""
        club = self.store.match
        if club is None or club.state != "playing":
            return
        m = self.table.controller.status().match
        if not self._is_club_match(m, club.assignment):
            return
        if self._banner and m.phase != "opening":
            self._banner = False
            _soon(lambda: self.table.show_banner(None))
        if m.is_over:
            self._keep_result(club, m)

    def _keep_result(self, club: ClubMatch, m: Match) -> None:
        a = club.assignment
        if not any(r.get("match_id") == a.match_id for r in self.store.results):
            when = self._wall()
            result: JsonObject = {
                "match_id": a.match_id, "white": a.white, "black": a.black, "length": a.length,
                "score": list(m.score), "winner": m.winner,
                "record": dice_record(m, self.table.controller.status().dice, when),
                "finished_at": when.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")}
            try:
                self.store.add_result(result)
            except OSError as exc:  # tried again after the next scene
                log.error("club: cannot keep the result of %r yet: %s", a.match_id, exc.strerror or exc)
                return
            log.info("club: match %r over: %s wins %d-%d", a.match_id, m.winner, *m.score)
        self._keep(ClubMatch(a, "finished"))


def _soon(action: Callable[[], object]) -> None:
    """`action` after the event being handled (a scene's listener may not dispatch inside it)."""
    try:
        asyncio.get_running_loop().call_soon(action)
    except RuntimeError:
        action()
