"""The web app: a JSON API over the library (each answer is the CLI's `--format json` output, byte for byte) and
the analyst's page at `/`. Everything it serves comes from this server: the page's script and style ship in
reasoner/web/static, and the interactive docs' in the fastapi-offline package.

Bad input is a 422 whose `message` is what the CLI prints after "error: " and whose `problems` are its
(field, message) pairs; a body over MAX_BODY_BYTES is a 413; no answer within the time limit or the memory limit is a 503; a body
not received within BODY_SECONDS is a 408, and a connection whose request headers take longer than
HEADER_SECONDS is closed. Every answer says nosniff, may not be framed, and loads nothing from elsewhere (CSP).
"""
from __future__ import annotations

import asyncio
import json
import os
import re
from contextlib import asynccontextmanager
from datetime import date
from pathlib import Path
from typing import Any, Callable, Literal

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.routing import APIRoute
from fastapi.staticfiles import StaticFiles
from fastapi_offline import FastAPIOffline
from pydantic import BaseModel, Field
from starlette.background import BackgroundTask
from starlette.concurrency import run_in_threadpool
from starlette.requests import ClientDisconnect
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from reasoner import service as library
from reasoner.law.labels import as_json as labels_table
from reasoner.views import report as reporting  # its to_html and to_markdown
from reasoner.web.workers import Busy, Pool, TimeLimit

STATIC = Path(__file__).parent / "static"
MAX_BODY_BYTES = 2 * 1024 * 1024   # an event file of about 2,000 events; `reasoner batch` takes more
TIME_LIMIT = 20.0                  # seconds for one request's solving, as `--time-limit` for the CLI
HEADER_SECONDS = 10.0              # from a connection (or its last answer) to a request's complete headers
BODY_SECONDS = 30.0                # from the headers to the whole body: 2 MiB at about 70 KB/s

# The page and its files come from this server only; the interactive docs' page starts its bundled script inline.
PAGE_POLICY = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
               "form-action 'self'; base-uri 'none'; frame-ancestors 'none'")
DOCS_POLICY = ("default-src 'none'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; "
               "img-src 'self' data:; connect-src 'self'; worker-src 'self' blob:; form-action 'none'; "
               "base-uri 'none'; frame-ancestors 'none'")


# ---------------------------------------------------------------- requests and answers

class EventInput(BaseModel):
    """The event(s): the text of an event file, or the event as JSON."""

    source: str | None = Field(None, description="The text of an event file, YAML or JSON (JSON when `filename` "
                                                  "ends in .json), read as `reasoner` reads a file.")
    event: Any = Field(None, description="Or the event itself as JSON: one event, a list, or {events: [...]}; "
                                         "see GET /schema.")
    filename: str | None = Field(None, max_length=200, description="Names the input in messages (default: event).")
    as_of: date | None = Field(None, description="Apply the version of each ordinance in force on this date "
                                                 "(default: each event's as_of, else its first day), as --as-of.")
    readings: dict[str, str] = Field({}, description='Readings of contested passages to apply instead of the defaults, '
                                                  'as {"ordinance.interpretation": "reading"} (GET /readings lists '
                                                  'them), as --reading.')


class EvaluateRequest(EventInput):
    ordinances: list[str] = Field([], description="Ordinance names (default: every encoded one).")
    filed: date | None = Field(None, description="Check this filing date instead of application.filed.")
    depends_on_readings: bool = Field(False, description="Say of each answer whether an alternative reading of the "
                                                         "law moves it (`depends_on_readings`), as evaluate --readings.")


class ExplainRequest(EventInput):
    conclusion: str | None = Field(None, description="e.g. toilets, permit_required, nurses (default: every one).")
    ordinances: list[str] = []
    event_id: str | None = Field(None, description="Which event of several (by id).")
    full: bool = Field(False, description="Every step about the schedule, none marked `folded` (`explain --full`).")


class QuestionsRequest(EventInput):
    ordinances: list[str] = []
    event_id: str | None = None


class WhatifRequest(EventInput):
    ordinance: str = Field(description="The ordinance to ask about (one).")
    flip: str = Field(description="permit_required, a conclusion's name, or a kind (late).")
    keep: list[str] = Field([], description="Facts that may not change: attendance, schedule, site, flags, special_services, filing.")
    allow: list[str] = Field([], description="Also let these change: organizer, kinds.")
    proposals: int = Field(library.PROPOSALS, ge=1, le=20,
                           description="How many proposals at most: the smallest, then the next smallest, ranked.")
    event_id: str | None = None


class ReportRequest(EventInput):
    ordinances: list[str] = Field([], description="Ordinance names (default: every encoded one).")
    format: Literal["html", "markdown"] = Field("html", description="The page as HTML or as Markdown.")
    depends_on_readings: bool = Field(False, description="List the answers an alternative reading of the law moves, "
                                                         "as report --readings.")


class CompareRequest(EventInput):
    ordinances: list[str] = []
    event_id: str | None = None
    kinds: list[str] | None = Field(None, description="Kinds of conclusion to show, or [\"all\"] (default: the CLI's).")
    versions: list[date] | None = Field(None, description="One ordinance beside itself: a column per date, each under "
                                                          "the version then in force, as --versions.")
    changes: bool = Field(False, description="With versions: only the conclusions that change between them, with "
                                             "the clauses reworded, as --changes.")
    depends_on_readings: bool = Field(False, description="Say in each row whether the ordinances differ because of a "
                                                         "reading or whatever the reading; one ordinance gets a column "
                                                         "per reading that moves an answer, as compare --readings.")


class Problem(BaseModel):
    field: str = Field(description="Where in the event (empty when the problem is the whole input).")
    message: str


class Refusal(BaseModel):
    message: str = Field(description="What the CLI prints after 'error: '.")
    problems: list[Problem] = []


def _answer(data: Any) -> Response:
    """The CLI's `--format json` output, to the byte."""
    return _sent(library.json_text(data).encode("utf-8"))


def _sent(text: bytes | Path) -> Response:
    """A worker's answer, JSON text as bytes or in a file of its pool's, which is removed once sent."""
    if isinstance(text, Path):
        return FileResponse(text, media_type="application/json",
                            background=BackgroundTask(text.unlink, missing_ok=True))
    return Response(text, media_type="application/json")


def _whole(text: bytes | Path) -> bytes:
    """A worker's answer read whole, its file (if it wrote one) removed."""
    if isinstance(text, Path):
        try:
            return text.read_bytes()
        finally:
            text.unlink(missing_ok=True)
    return text


def _download_name(name: str) -> str:
    """A file name safe inside a content-disposition header: an event id keeps its letters, digits, - _ and ."""
    return re.sub(r"[^A-Za-z0-9._-]", "_", name)


def _refusal(status: int, message: str, problems: list[tuple[str, str]] | None = None) -> JSONResponse:
    listed = [{"field": field, "message": text} for field, text in (problems or [("", message)])]
    return JSONResponse({"message": message, "problems": listed}, status_code=status)


ANSWERS = {200: {"description": "What `reasoner COMMAND --format json` prints for the same input.",
                 "content": {"application/json": {}}},
           422: {"model": Refusal, "description": "Bad input, with the CLI's field-level messages."},
           413: {"model": Refusal, "description": "The request body is too large."},
           503: {"model": Refusal, "description": "No answer within the time limit or the memory limit, or every worker busy "
                                                  "that long."}}


# ---------------------------------------------------------------- limits

class BodyLimit:
    """Refuses a request body past `limit` bytes, by Content-Length or as it streams in, before anything reads it,
    and one not received within `seconds` of its headers (a 408, and the connection closed)."""

    def __init__(self, app: ASGIApp, limit: int, seconds: float = BODY_SECONDS):
        self.app, self.limit, self.seconds = app, limit, seconds

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        declared = dict(scope["headers"]).get(b"content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > self.limit):
            return await self._refuse(scope, receive, send)
        seen = 0
        deadline = asyncio.get_running_loop().time() + self.seconds
        complete = False

        async def counted() -> Message:
            nonlocal seen, complete
            if complete:  # the body is in: what follows is waiting for a disconnect, never timed
                return await receive()
            try:
                message = await asyncio.wait_for(receive(), max(0.0, deadline - asyncio.get_running_loop().time()))
            except asyncio.TimeoutError:
                raise _TooSlow() from None
            seen += len(message.get("body", b""))
            if seen > self.limit:
                raise _TooLarge()
            complete = message["type"] != "http.request" or not message.get("more_body", False)
            return message

        try:
            await self.app(scope, counted, send)
        except _TooLarge:
            await self._refuse(scope, receive, send)
        except _TooSlow:
            response = _refusal(408, f"the request body did not arrive within {self.seconds:g} s")
            response.headers["connection"] = "close"
            await response(scope, receive, send)

    async def _refuse(self, scope: Scope, receive: Receive, send: Send) -> None:
        response = _refusal(413, f"the request body is larger than {self.limit // 1024:,} KiB; "
                                 "`reasoner batch` evaluates large files")
        await response(scope, receive, send)


class _TooLarge(Exception):
    pass


class _TooSlow(Exception):
    pass


class SecurityHeaders:
    """nosniff, no framing, and a Content-Security-Policy on every answer: the page's own, or the docs' (whose page
    starts its bundled script inline)."""

    def __init__(self, app: ASGIApp):
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        policy = DOCS_POLICY if scope["path"].startswith(("/docs", "/redoc")) else PAGE_POLICY

        async def headed(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", []), (b"x-content-type-options", b"nosniff"),
                                      (b"x-frame-options", b"DENY"), (b"content-security-policy", policy.encode()),
                                      (b"referrer-policy", b"no-referrer")]
            await send(message)

        await self.app(scope, receive, headed)


class _UniqueKeys(APIRoute):
    """Reads JSON bodies as the event loader reads JSON files: a key written twice is refused, not overwritten, and
    nesting past an event's depth is refused before validation or a worker's pickling can recurse into it."""

    def get_route_handler(self) -> Callable:
        handler = super().get_route_handler()

        async def route(request: Request) -> Response:
            try:
                body = await request.body()
            except ClientDisconnect:  # gone mid-body: nobody to answer, and nothing for the log
                return Response(status_code=400)
            if body:
                try:
                    library.read_body(body)
                except library.InputProblem as problem:
                    return _refusal(422, problem.message, problem.problems)
                except ValueError:
                    pass  # malformed JSON: FastAPI's own 422 says where
            return await handler(request)

        return route


# ---------------------------------------------------------------- the app

def create_app(time_limit: float = TIME_LIMIT, workers: int | None = None, max_body: int = MAX_BODY_BYTES,
               body_seconds: float = BODY_SECONDS, memory_limit: int | None = None) -> FastAPI:
    """The app; `workers` solving processes (default: one per CPU) each answer within `time_limit` seconds and
    `memory_limit` megabytes, and each request's body must arrive within `body_seconds`."""
    size = workers or os.cpu_count() or 1
    state: dict[str, Pool] = {}

    @asynccontextmanager
    async def lifespan(app: FastAPI):
        state["pool"] = await run_in_threadpool(Pool, size, time_limit, memory_limit)
        try:
            yield
        finally:
            state.pop("pool").close()

    app = FastAPIOffline(title="reasoner", version=_version(), lifespan=lifespan, static_url="/docs-static",
                         description="Local large-gathering ordinances: what each requires of an event, and why. "
                                     "Each answer is what `reasoner COMMAND --format json` prints for the same input.")
    app.router.route_class = _UniqueKeys
    app.add_middleware(BodyLimit, limit=max_body, seconds=body_seconds)
    app.add_middleware(SecurityHeaders)

    @app.exception_handler(RequestValidationError)
    async def invalid_request(request: Request, error: RequestValidationError) -> JSONResponse:
        problems = []
        for item in error.errors():
            where = ".".join(str(part) for part in item["loc"] if part != "body")
            problems.append((where, item["msg"]))
        return _refusal(422, "; ".join(f"{f}: {m}" if f else m for f, m in problems), problems)

    async def solved(command: str, request: dict[str, Any]) -> bytes | Path | Response:
        """A worker's answer to `request`, or the refusal to send instead."""
        try:
            return await run_in_threadpool(state["pool"].call, command, request)
        except library.InputProblem as problem:
            return _refusal(422, problem.message, problem.problems)
        except TimeLimit:
            return _refusal(503, library.timeout_message(time_limit, command))
        except library.OutOfMemory as short:
            return _refusal(503, short.message)
        except Busy:
            return _refusal(503, f"every worker stayed busy for {time_limit:g} s; try again shortly")

    async def solve(command: str, body: BaseModel) -> Response:
        data = await solved(command, body.model_dump())
        return data if isinstance(data, Response) else _sent(data)

    @app.post("/evaluate", responses=ANSWERS, tags=["reasoning"])
    async def evaluate(body: EvaluateRequest) -> Response:
        """Every conclusion, per event and ordinance (`reasoner evaluate`)."""
        return await solve("evaluate", body)

    @app.post("/explain", responses=ANSWERS, tags=["reasoning"])
    async def explain(body: ExplainRequest) -> Response:
        """Why (or why not) a conclusion holds, down to facts and clauses (`reasoner explain`)."""
        return await solve("explain", body)

    @app.post("/questions", responses=ANSWERS, tags=["reasoning"])
    async def questions(body: QuestionsRequest) -> Response:
        """The unknown facts that matter, most decisive first (`reasoner questions`)."""
        return await solve("questions", body)

    @app.post("/whatif", responses=ANSWERS, tags=["reasoning"])
    async def whatif(body: WhatifRequest) -> Response:
        """The smallest change that flips a conclusion (`reasoner whatif`)."""
        return await solve("whatif", body)

    @app.post("/report", tags=["reasoning"], responses={
        200: {"description": "The page `reasoner report --out FILE` writes for the same input, as a download.",
              "content": {"text/html": {}, "text/markdown": {}}}, **{k: v for k, v in ANSWERS.items() if k != 200}})
    async def report(body: ReportRequest) -> Response:
        """One page to hand on, per event and ordinance (`reasoner report`): HTML, or Markdown."""
        request = body.model_dump()
        fmt = request.pop("format")
        data = await solved("report", request)
        if isinstance(data, Response):
            return data
        pages = json.loads(_whole(data))
        text = reporting.to_html(pages) if fmt == "html" else reporting.to_markdown(pages)
        events = {page["event"] for page in pages}
        name = f"{events.pop() if len(events) == 1 else 'events'}-report.{'html' if fmt == 'html' else 'md'}"
        return Response(text, media_type="text/html" if fmt == "html" else "text/markdown",
                        headers={"content-disposition": f'attachment; filename="{_download_name(name)}"'})

    @app.post("/compare", responses=ANSWERS, tags=["reasoning"])
    async def compare(body: CompareRequest) -> Response:
        """The ordinances side by side, the strictest marked (`reasoner compare`)."""
        return await solve("compare", body)

    @app.get("/ordinances", responses=ANSWERS, tags=["law"])
    async def ordinances() -> Response:
        """The encoded ordinances: name, jurisdiction, title, level, adopting body, versions, source (`reasoner ordinances`)."""
        return _answer(library.ordinances())

    @app.get("/readings", responses=ANSWERS, tags=["law"])
    async def readings() -> Response:
        """Every choice between readings of a contested passage: default, alternatives and why (`readings` in a request)."""
        return _answer(library.reading_choices())

    @app.get("/ordinances/{name}/clauses", responses=ANSWERS, tags=["law"])
    async def clauses(name: str) -> Response:
        """An ordinance's clause registry (`reasoner clauses NAME`)."""
        return _clauses(name, None)

    @app.get("/ordinances/{name}/clauses/{clause_id}", responses=ANSWERS, tags=["law"])
    async def clause(name: str, clause_id: str) -> Response:
        """One clause's words (`reasoner clauses NAME CLAUSE_ID`)."""
        return _clauses(name, clause_id)

    @app.get("/schema", responses=ANSWERS, tags=["events"])
    async def schema() -> Response:
        """The JSON Schema of event files (`reasoner schema`)."""
        return _answer(library.schema())

    @app.get("/labels", responses=ANSWERS, tags=["law"])
    async def labels() -> Response:
        """The words of each status and kind of conclusion, as every output shows them (reasoner/law/labels.py)."""
        return _answer(labels_table())

    @app.get("/", include_in_schema=False)
    async def page() -> FileResponse:
        return FileResponse(STATIC / "index.html")

    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    return app


def _clauses(name: str, clause_id: str | None) -> Response:
    try:
        return _answer(library.clauses(name, clause_id))
    except library.InputProblem as problem:
        return _refusal(404, problem.message)


def _version() -> str:
    from importlib.metadata import version

    return version("reasoner")


def timed_protocol(seconds: float = HEADER_SECONDS) -> type:
    """uvicorn's h11 protocol, closing a connection whose request headers are not complete within `seconds` of
    its opening or of its last answer (a client trickling or stalling its headers holds nothing for long)."""
    import h11
    from uvicorn.protocols.http.h11_impl import H11Protocol

    class TimedH11Protocol(H11Protocol):
        _header_timer: asyncio.TimerHandle | None = None

        def _arm(self) -> None:
            self._disarm()
            self._header_timer = self.loop.call_later(seconds, self._headers_late)

        def _disarm(self) -> None:
            if self._header_timer is not None:
                self._header_timer.cancel()
                self._header_timer = None

        def _headers_late(self) -> None:
            self._header_timer = None
            if self.conn.their_state is h11.IDLE and not self.transport.is_closing():
                self.transport.write(b"HTTP/1.1 408 Request Timeout\r\ncontent-length: 0\r\nconnection: close\r\n\r\n")
                self.transport.close()

        def connection_made(self, transport: Any) -> None:
            super().connection_made(transport)
            self._arm()

        def data_received(self, data: bytes) -> None:
            super().data_received(data)
            if self.conn.their_state is not h11.IDLE:
                self._disarm()

        def on_response_complete(self) -> None:
            super().on_response_complete()
            if not self.transport.is_closing():
                self._arm()

        def connection_lost(self, exc: Exception | None) -> None:
            self._disarm()
            super().connection_lost(exc)

    return TimedH11Protocol


def server_config(app: FastAPI, host: str, port: int, header_seconds: float = HEADER_SECONDS, **options: Any) -> Any:
    """uvicorn's configuration for the app: the header timeout's protocol, the rest as given."""
    import uvicorn

    return uvicorn.Config(app, host=host, port=port, http=timed_protocol(header_seconds), **options)


def serve(host: str, port: int, time_limit: float = TIME_LIMIT, workers: int | None = None,
          memory_limit: int | None = None) -> None:
    """Run the app under uvicorn until interrupted."""
    import uvicorn

    app = create_app(time_limit, workers, memory_limit=memory_limit)
    uvicorn.Server(server_config(app, host, port, log_level="info")).run()
