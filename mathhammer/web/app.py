"""The Starlette application: pages, the check-as-you-type endpoint, jobs and uploads.

Routes (every page is a GET whose query string holds the whole situation, so it can be
bookmarked; ``run=1`` in it starts the computation when the page opens):

==============================  ===========================================================
``GET /``, ``/army``,           the pages
``/battle``, ``/warmachine``,
``/dust``
``GET /api/check``              one line checked: the parser's message or the line as read
``GET /api/units?find=TEXT``    datasheet names of the BSData checkout (the unit box)
``POST /api/jobs``              start a page's computation (form-encoded query): job id
``GET /api/jobs/{id}``          its state, progress, and when done its HTML
``POST /api/jobs/{id}/cancel``  cancel it
``GET /api/jobs/{id}/files/{name}``  a download (PNG, SVG, Markdown, CSV)
``GET /api/jobs/{id}/views/{name}``  an extra view (a matrix cell's distributions)
``POST /api/rosters``           a roster upload (read in memory): its id and listing
``GET /static/{name}``          the stylesheet and script shipped in the package
==============================  ===========================================================
"""

from __future__ import annotations

import functools
import inspect
import os
from collections.abc import Callable, Mapping
from typing import Any
from urllib.parse import parse_qsl

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Route

from mathhammer.errors import MathhammerError, OptionError
from mathhammer.web import army, battle, forms, games
from mathhammer.web.checks import check_line
from mathhammer.web.guard import OriginGuard
from mathhammer.web.jobs import JobRunner
from mathhammer.web.templating import STATIC, page, static_file
from mathhammer.web.units import NO_DATA, Units
from mathhammer.web.uploads import RosterStore, Upload, parse_form, read_body
from mathhammer.web.words import page_message
from mathhammer.wh40k.bsdata.files import DATA_VARIABLE
from mathhammer.wh40k.roster.read import MAX_FILE_BYTES

#: Longest query string or form body of a page (lines, scenario, switches).
MAX_QUERY_BYTES = 256 * 1024
#: Security headers of every page: nothing loaded from elsewhere, no framing.
HEADERS = {"Content-Security-Policy": "default-src 'self'; style-src 'self' 'unsafe-inline'; "
                                      "img-src 'self' data:; frame-ancestors 'none'; "
                                      "form-action 'self'; base-uri 'none'",
           "X-Content-Type-Options": "nosniff", "Referrer-Policy": "no-referrer",
           "Cache-Control": "no-store"}

PAGES = {"40k": ("/", "Weapons vs targets"), "army": ("/army", "My army"),
         "battle": ("/battle", "Battle"), "warmachine": ("/warmachine", "Warmachine"),
         "dust": ("/dust", "Dust")}


class State:
    """What the server keeps in memory: the job pool, the uploaded lists and the BSData
    checkout ``@Name`` lines are read from (``data``; None: none)."""

    def __init__(self, data: str | None = None) -> None:
        self.jobs = JobRunner()
        self.rosters = RosterStore()
        self.units = Units(data)

    def work(self, kind: str, query: Mapping[str, str]) -> Callable:
        """The job for page ``kind`` (checked now: bad input raises at once)."""
        if kind == "40k":
            return games.wh40k_job(query, self.units)
        if kind == "warmachine":
            return games.warmachine_job(query)
        if kind == "dust":
            return games.dust_job(query)
        if kind == "army":
            return army.matrix_job(query, self.rosters)
        if kind == "battle":
            return battle.battle_job(query)
        raise OptionError(f"no page '{kind[:30]}'")


def _html(text: str, status: int = 200) -> HTMLResponse:
    return HTMLResponse(text, status_code=status, headers=HEADERS)


def _json(value: Any, status: int = 200) -> JSONResponse:
    return JSONResponse(value, status_code=status, headers=HEADERS)


def _query(request: Request) -> dict[str, str]:
    if len(request.url.query) > MAX_QUERY_BYTES:
        raise OptionError(f"the address is {len(request.url.query):,} characters long; at "
                          f"most {MAX_QUERY_BYTES:,}")
    return dict(request.query_params)


def _page(kind: str) -> Callable:
    async def handler(request: Request) -> Response:
        state: State = request.app.state.mh
        try:
            query = _query(request)
        except MathhammerError as exc:
            return _html(page_message(exc), 400)
        context = await run_in_threadpool(_context, kind, query, state)
        return _html(page(f"{kind}.html", kind=kind, pages=PAGES, query=query, forms=forms,
                          **context))
    return handler


def _context(kind: str, query: dict[str, str], state: State) -> dict[str, Any]:
    """What a page shows besides its form: a list's listing, a scenario written from lists,
    or the one-line refusal of its inputs."""
    out: dict[str, Any] = {"error": "", "listing": "", "other_listing": "",
                           "scenario": query.get("scenario") or battle.EXAMPLE,
                           "fields": {"40k": forms.WH40K_FIELDS, "army": forms.WH40K_FIELDS,
                                      "warmachine": games.WARMACHINE_SWITCHES,
                                      "dust": games.DUST_FIELDS}.get(kind, ()),
                           "switches": forms.WH40K_SWITCHES, "buffs": forms.WH40K_BUFFS,
                           "army_fields": (
                               army.PHASES, army.PROFILES, army.METRIC),
                           "default_targets": army.DEFAULT_TARGETS,
                           "archetypes": _archetypes(), "max_bytes": MAX_FILE_BYTES,
                           "units_ready": state.units.ready, "no_data": NO_DATA}
    try:
        check_fields(kind, query)
        if kind == "army" and query.get("list"):
            out["listing"] = army.listing(army.load(
                state.rosters, query["list"], army.pairs_field(query, "attach"),
                army.pairs_field(query, "assume")))
            if query.get("against"):
                out["other_listing"] = army.listing(army.load(
                    state.rosters, query["against"], army.pairs_field(query, "attach_other")))
        if kind == "battle" and query.get("list") and query.get("against"):
            if not query.get("scenario"):
                out["scenario"] = battle.two_lists(army.load(state.rosters, query["list"]),
                                                   army.load(state.rosters, query["against"]))
    except MathhammerError as exc:
        out["error"] = page_message(exc)
    return out


def check_fields(kind: str, query: Mapping[str, str]) -> None:
    """Refuse, in one line, a page address whose choices, switches or numbers the page's
    controls cannot show (``edition=9`` would show edition 11 and compute it)."""
    if not query:
        return
    if kind in ("40k", "army"):
        fields = forms.WH40K_FIELDS if query.get("edition") or kind == "40k" else \
            tuple(f for f in forms.WH40K_FIELDS if f.name != "edition")
        forms.read_fields(query, (*forms.WH40K_SWITCHES, *fields))
    if kind in ("40k", "army", "battle"):
        forms.wh40k_buffs(query)
    if kind == "army":
        forms.read_fields(query, (army.PHASES, army.PROFILES, army.METRIC))
    if kind == "warmachine":
        forms.read_fields(query, games.WARMACHINE_SWITCHES)
    if kind == "dust":
        forms.read_fields(query, games.DUST_FIELDS)
    limit = {"army": army.MATRIX_TRIALS, "battle": battle.MAX_BATTLE_TRIALS}.get(
        kind, forms.MAX_TRIALS)
    forms.read_engine(query, limit)


def _archetypes() -> list[str]:
    from mathhammer.wh40k.targets import load_targets

    return list(load_targets())


async def check(request: Request) -> Response:
    query = dict(request.query_params)
    line = query.get("line", "")
    if len(line) > forms.MAX_LINE_CHARS:
        return _json({"ok": False, "message": f"{len(line):,} characters; a line may have at "
                                              f"most {forms.MAX_LINE_CHARS}"})
    answer = await run_in_threadpool(check_line, query.get("game", ""), query.get("kind", ""),
                                     line, request.app.state.mh.units)
    return _json(answer)


async def unit_names(request: Request) -> Response:
    """The datasheets whose name holds ``find``: the unit box's completion."""
    units: Units = request.app.state.mh.units
    if not units.ready:
        return _json({"ok": False, "message": NO_DATA}, 404)
    try:
        answer = await run_in_threadpool(units.names, request.query_params.get("find", ""))
    except MathhammerError as exc:
        return _json({"ok": False, "message": page_message(exc)}, 400)
    return _json(answer)


async def start_job(request: Request) -> Response:
    state: State = request.app.state.mh
    try:
        body = await request.body()
        if len(body) > MAX_QUERY_BYTES:
            raise OptionError(f"the form is {len(body):,} bytes; at most {MAX_QUERY_BYTES:,}")
        query = dict(parse_qsl(body.decode("utf-8", "replace"), keep_blank_values=True))
        kind = query.get("page", "")
        work = await run_in_threadpool(state.work, kind, query)
        job = state.jobs.submit(work)
    except MathhammerError as exc:   # the page marks the field the location names
        return _json({"state": "error", "message": page_message(exc), "token": exc.token,
                      "location": exc.location}, 400)
    return _json(job.status())


def _job(request: Request) -> Any:
    """The job the address names, or ``None``."""
    return request.app.state.mh.jobs.get(request.path_params["job"])


async def job_status(request: Request) -> Response:
    job = _job(request)
    if job is None:
        return _json({"state": "error", "message": "no such computation (it finished long "
                                                   "ago, or the server was restarted)"}, 404)
    return _json(job.status())


async def cancel_job(request: Request) -> Response:
    job = request.app.state.mh.jobs.cancel(request.path_params["job"])
    if job is None:
        return _json({"state": "error", "message": "no such computation"}, 404)
    return _json(job.status())


async def job_file(request: Request) -> Response:
    job = _job(request)
    name = request.path_params["name"]
    download = job.answer.downloads.get(name) if job is not None and job.answer else None
    if download is None:
        return _html("no such file: run the computation again", 404)
    data = await run_in_threadpool(download.make)
    return Response(data, media_type=download.media_type, headers={
        **HEADERS, "Content-Disposition": f'attachment; filename="mathhammer-{name}"'})


async def job_view(request: Request) -> Response:
    job = _job(request)
    view = job.answer.views.get(request.path_params["name"]) \
        if job is not None and job.answer else None
    if view is None:
        return _html("no such view: run the computation again", 404)
    width = _page_width(request.query_params.get("width", ""))
    draw = functools.partial(view, width=width) if width is not None and \
        "width" in inspect.signature(view).parameters else view
    try:
        return _html(await run_in_threadpool(draw))
    except MathhammerError as exc:
        return _html(f'<p class="error">{page_message(exc)}</p>', 400)


def _page_width(text: str) -> int | None:
    """The width a chart gets on the page (``?width=`` in CSS px, as the page measures it),
    or None when absent or not a plain number from 1 to 10,000 (a chart is then drawn at the
    article width)."""
    text = text.strip()
    if not (text.isascii() and text.isdigit() and 0 < len(text) <= 5):
        return None
    return int(text) if 0 < int(text) <= 10_000 else None


async def upload_roster(request: Request) -> Response:
    state: State = request.app.state.mh
    try:
        body = await read_body(request)
        fields, files = parse_form(request.headers.get("content-type", ""), body)
        if len(files) != 1:
            raise OptionError("drop one roster file (.ros, .rosz or New Recruit .json)")
        listing = await run_in_threadpool(_read_roster, files[0])
    except MathhammerError as exc:
        return _json({"ok": False, "message": page_message(exc)}, 400)
    key = state.rosters.add(files[0])
    return _json({"ok": True, "id": key, "name": files[0].name, "html": listing,
                  "slot": fields.get("slot", "list")})


def _read_roster(upload: Upload) -> str:
    from mathhammer.wh40k.roster.api import parse_roster

    return army.listing(parse_roster(upload.data, upload.name))


async def static(request: Request) -> Response:
    name = request.path_params["name"]
    data = static_file(name)
    if data is None:
        return _html("not found", 404)
    return Response(data, media_type=STATIC[name],
                    headers={**HEADERS, "Cache-Control": "max-age=300"})


async def _internal_error(request: Request, exc: Exception) -> Response:
    """A bug: one line on the page (the server's log shows the traceback)."""
    return _html(f"internal error ({type(exc).__name__}); this is a bug in mathhammer, "
                 "please report it", 500)


def create_app(*, port: int = 8765, bind_host: str = "127.0.0.1",
               data: str | os.PathLike[str] | None = None) -> Any:
    """The application, wrapped in the :class:`~mathhammer.web.guard.OriginGuard` that
    answers only requests for ``bind_host``:``port`` from the page itself.

    ``data`` is the BSData checkout ``@Name`` lines are read from (else
    ``$MATHHAMMER_DATA`` as the application is made; neither: the page has no units by
    name, and says how to give them)."""
    routes = [Route(path, _page(kind), methods=["GET"]) for kind, (path, _) in PAGES.items()]
    routes += [Route("/api/check", check, methods=["GET"]),
               Route("/api/units", unit_names, methods=["GET"]),
               Route("/api/jobs", start_job, methods=["POST"]),
               Route("/api/jobs/{job}", job_status, methods=["GET"]),
               Route("/api/jobs/{job}/cancel", cancel_job, methods=["POST"]),
               Route("/api/jobs/{job}/files/{name}", job_file, methods=["GET"]),
               Route("/api/jobs/{job}/views/{name}", job_view, methods=["GET"]),
               Route("/api/rosters", upload_roster, methods=["POST"]),
               Route("/static/{name}", static, methods=["GET"])]
    app = Starlette(routes=routes, exception_handlers={Exception: _internal_error})
    if data is None:
        data = os.environ.get(DATA_VARIABLE) or None
    app.state.mh = State(None if data is None else os.fspath(data))
    return OriginGuard(app, port=port, bind_host=bind_host)
