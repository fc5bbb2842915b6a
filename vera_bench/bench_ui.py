"""`vera bench ui`: the app as a person sees it. Starts `streamlit run app.py` on a free port with a
fresh store (the app loads the bundled samples), drives Debian's Chromium with Playwright and prints
the time from pressing Enter to the answer being shown, and from clicking a citation to its
highlighted page being shown (medians; targets 1.5 s and 0.5 s).

`--during-ingest`: the same questions while the dev filings are ingested in the background (P95
target 2 s). `--sessions N`: N browser sessions asking at once, against one session alone in the same
run (P95 target: at most twice the single session's)."""

from __future__ import annotations

import asyncio
import os
import statistics
import tempfile
import time
from collections.abc import Iterator
from contextlib import asynccontextmanager, contextmanager
from pathlib import Path

from vera_bench.app_server import CHROMIUM_ARGS, CHROMIUM, ROOT, launch_chromium, start_app
from vera_core.cli.bench_cmd import SAMPLES, default_paths
from vera_bench.ui_driver import AskPage
from vera_core.config import VeraSettings
from vera_core.serve.nginx import AFFINITY_COOKIE

QUESTIONS = ("What does page 4 say about the acquisition of Nordlicht?", "List all significant events",
             "What was total revenue in 2024 and 2023?", "What is the reporting currency?")
ANSWER_TARGET_S = 1.5
CITATION_TARGET_S = 0.5
DURING_INGEST_TARGET_S = 2.0
SESSIONS_FACTOR = 2.0


def run(args, settings: VeraSettings) -> int:
    try:
        import playwright  # noqa: F401
    except ImportError:
        print("vera bench ui needs Playwright: .venv/bin/pip install -r requirements-test.txt")
        return 2
    if args.sessions and args.sessions > 1:
        return _sessions(args, settings)
    if args.during_ingest:
        return _during_ingest(args)
    return _latency(args)


@contextmanager
def _asking(log_name: str, timeout_ms: int) -> Iterator[tuple[Path, AskPage]]:
    """The app on a fresh store (the samples loaded) and one warmed-up Ask page in Chromium."""
    from playwright.sync_api import sync_playwright
    with tempfile.TemporaryDirectory() as store, start_app(Path(store), log=ROOT / "test-artifacts" / log_name) as server, \
            sync_playwright() as pw:
        browser = launch_chromium(pw)
        page = browser.new_page(viewport={"width": 1500, "height": 1000})
        page.set_default_timeout(timeout_ms)
        ask = AskPage(page, server.url)
        ask.open()
        _wait_until_complete(Path(store))  # a first start embeds the samples: not what is measured
        ask.ask("List all significant events")  # warm-up: the first rerun of a session is not typical
        yield Path(store), ask
        browser.close()


def _latency(args) -> int:
    answer_s: dict[str, list[float]] = {q: [] for q in QUESTIONS}
    click_s: list[float] = []
    with _asking("bench-ui-streamlit.log", 120_000) as (_, ask):
        for _ in range(args.runs):
            for question in QUESTIONS:
                answer_s[question].append(ask.ask(question))
                for n in (2, 1):
                    if ask.citation_button(n).count():
                        click_s.append(ask.click_citation(n))
    print(f"UI latency over {args.runs} run(s) of {len(QUESTIONS)} questions on the samples (medians):")
    for question, times in answer_s.items():
        print(f"  Enter -> answer shown   {statistics.median(times):6.2f} s  {question}")
    every = [t for times in answer_s.values() for t in times]
    print(f"  Enter -> answer shown   {statistics.median(every):6.2f} s  all questions "
          f"(max {max(every):.2f} s; target <= {ANSWER_TARGET_S} s)")
    print(f"  citation click -> highlighted page shown  {statistics.median(click_s):6.2f} s "
          f"over {len(click_s)} clicks (max {max(click_s):.2f} s; target <= {CITATION_TARGET_S} s)")
    return 0


def _during_ingest(args) -> int:
    """Questions on the samples while the dev filings are queued and ingested by the app's worker, until
    every filing is complete, and `--runs` rounds at least (without the dev corpus: the samples, already
    present, so nothing is ingested)."""
    from vera_core.ingest.desk import IngestDesk
    from vera_core.store.jobs import JobQueue
    from vera_core.workspace import Workspace
    files = default_paths()
    times: list[float] = []
    with _asking("bench-ui-ingest-streamlit.log", 180_000) as (store, ask):
        ws = Workspace(VeraSettings(data_dir=store))
        desk = IngestDesk(ws)
        started = time.perf_counter()
        ids = [s.job_id for s in (desk.submit_path(p) for p in files) if s.job_id is not None]
        queue = JobQueue(ws.catalog)
        rounds = 0
        while rounds < args.runs or any(queue.get(i).active for i in ids):
            for question in QUESTIONS:
                times.append(ask.ask(question))
            rounds += 1
        ingest_s = time.perf_counter() - started
        jobs = [queue.get(i) for i in ids]
    print(f"{len(times)} questions asked while {len(files)} files were ingested in the background "
          f"({sum(j.pages for j in jobs)} pages, {ingest_s:.0f} s until every one was complete):")
    print(f"  Enter -> answer shown  P50 {percentile(times, 50):.2f} s  P95 {percentile(times, 95):.2f} s  "
          f"max {max(times):.2f} s  (target P95 <= {DURING_INGEST_TARGET_S} s)")
    return 0


def _sessions(args, settings: VeraSettings) -> int:
    """One session alone, then `args.sessions` sessions asking at once, in one app run: first as the
    server delivers each answer (sessions that speak the app's protocol, as browsers on the analysts' own
    machines would), then as each answer is shown in Chromium (the browsers on this machine's cores).
    With `--processes N`: the app as `vera serve` runs it on the configured store, N processes behind
    nginx, the sessions spread evenly over them."""
    sessions = args.sessions
    questions = list(QUESTIONS) * max(1, args.runs)
    with _app(args, settings) as (url, pids, cookies):
        delivered = asyncio.run(_measure(url, sessions, questions, _stream_sessions, pids, cookies))
        shown = asyncio.run(_measure(url, sessions, questions, _browser_sessions, pids, cookies))
        split = asyncio.run(_cpu_per_question(url, pids, questions, cookies))
    where = f"{args.processes} app process(es) behind nginx" if args.processes else "one app"
    print(f"Enter -> answer, {len(questions)} questions per session, {where}, on a machine with "
          f"{os.cpu_count()} cores:")
    cores = os.cpu_count() or 1
    # the server's floor for the protocol sessions only: Chromium's own CPU counts too (the last line)
    for title, (alone, together, server_cpu), server_only in (
            ("delivered by the server (sessions speak the app's protocol, as browsers on their own machines)",
             delivered, True),
            ("shown in Chromium (every browser on this machine, sharing its cores with the server)", shown, False)):
        single, many = percentile(alone, 95), percentile(together, 95)
        print(f"  {title}:")
        print(f"    1 session alone:      P50 {percentile(alone, 50):.2f} s  P95 {single:.2f} s  max {max(alone):.2f} s")
        print(f"    {sessions} sessions at once:  P50 {percentile(together, 50):.2f} s  P95 {many:.2f} s  "
              f"max {max(together):.2f} s")
        print(f"    ratio of P95: {many / single:.2f} (target <= {SESSIONS_FACTOR:.1f})")
        if server_only:
            floor = floor_s(server_cpu, sessions, cores)
            print(f"    the server's CPU per question, alone: {server_cpu:.3f} s; {sessions} sessions asking back to "
                  f"back on {cores} cores need at least {floor:.2f} s a question with every core busy: "
                  f"{floor / percentile(alone, 50):.2f}x the lone P50")
    browser_s, server_s, wall_s = split
    print(f"  one session alone in Chromium, per question: CPU {browser_s:.2f} s in Chromium and {server_s:.2f} s "
          f"in the server, {wall_s:.2f} s to the answer (median); {sessions} such sessions on {cores} cores take "
          f"at least {floor_s(browser_s + server_s, sessions, cores):.2f} s a question")
    return 0


@contextmanager
def _app(args, settings: VeraSettings) -> Iterator[tuple[str, callable, list[str]]]:
    """(url, a function giving the app's process ids, one affinity cookie per session) of the app the
    sessions ask: one `streamlit run` on a fresh store, or `vera serve --processes N` on the configured
    store with the samples in it."""
    if not args.processes:
        with tempfile.TemporaryDirectory() as store, \
                start_app(Path(store), log=ROOT / "test-artifacts" / "bench-ui-sessions-streamlit.log") as server:
            asyncio.run(_until_complete(server.url, Path(store)))
            yield server.url, lambda: [server.process.pid], [""] * args.sessions
        return
    from vera_bench.app_server import free_port
    from vera_core.ingest.service import Ingestor
    from vera_core.serve.cluster import Cluster
    from vera_core.serve.nginx import affinity_keys
    from vera_core.workspace import Workspace
    ws = Workspace(settings, batch=True)
    ingestor = Ingestor(ws)
    for path in sorted(SAMPLES.glob("*")):
        if path.suffix in (".pdf", ".md"):
            ingestor.ingest_file(path)
    ws.close_embedder()
    cluster = Cluster(settings, processes=args.processes, port=free_port(), workers=0)
    try:
        cluster.start()
        keys = affinity_keys(cluster.url, len(cluster.apps))
        cookies = [f"{AFFINITY_COOKIE}={keys[i % len(keys)]}" for i in range(args.sessions)]
        yield cluster.url, lambda: [a.process.pid for a in cluster.apps], cookies
    finally:
        cluster.stop()


async def _until_complete(url: str, store: Path) -> None:
    """Open the app once (a first start queues the bundled samples) and wait until they are complete."""
    from vera_bench.stream_session import StreamSession
    first = StreamSession(url)
    await first.open()
    await first.close()
    _wait_until_complete(store)


def _wait_until_complete(store: Path, timeout_s: float = 600) -> None:
    """Wait until every document of the store is complete and no job is active, so that no embedding
    of the samples competes with what is measured."""
    from vera_core.store.jobs import JobQueue
    from vera_core.workspace import Workspace
    ws = Workspace(VeraSettings(data_dir=store))
    deadline = time.monotonic() + timeout_s
    while ws.catalog.versions() == {} or ws.searchable_only() or JobQueue(ws.catalog).jobs(active_only=True):
        if time.monotonic() > deadline:
            raise RuntimeError(f"the bundled samples were not complete after {timeout_s:.0f} s")
        time.sleep(0.5)


async def _measure(url: str, sessions: int, questions: list[str], open_sessions, pids,
                   cookies: list[str]) -> tuple[list[float], list[float], float]:
    """Seconds to each answer for the first session alone, then for every session asking at once; and
    the app server's CPU seconds per question while the session was alone."""
    import psutil
    async with open_sessions(url, cookies[:sessions]) as askers:
        for asker in askers:  # warm-up: every question once in every session, so that neither
            for q in QUESTIONS:  # measurement pays a first question's caches
                await asker.ask(q)
        app = [psutil.Process(pid) for pid in pids()]
        before = _cpu_seconds(app)
        alone = [await askers[0].ask(q) for q in questions]
        server_cpu = (_cpu_seconds(app) - before) / len(questions)
        together: list[float] = []

        async def one(asker) -> None:
            for q in questions:
                together.append(await asker.ask(q))
        await asyncio.gather(*(one(a) for a in askers))
    return alone, together, server_cpu


def floor_s(cpu_s: float, sessions: int, cores: int) -> float:
    """The least time to an answer when `sessions` sessions ask back to back and each question costs
    `cpu_s` of CPU: every round of questions needs sessions x cpu_s of CPU, shared by at most `cores`
    cores (as many as there are sessions)."""
    return sessions * cpu_s / max(1, min(cores, sessions))


def _cpu_seconds(processes) -> float:
    """User and system CPU seconds of psutil `processes` so far (threads included; one gone counts 0)."""
    import psutil
    total = 0.0
    for process in processes:
        try:
            times = process.cpu_times()
        except psutil.NoSuchProcess:
            continue
        total += times.user + times.system
    return total


@asynccontextmanager
async def _stream_sessions(url: str, cookies: list[str]):
    """Sessions that speak the app's protocol, one per cookie."""
    from vera_bench.stream_session import StreamSession
    askers = [StreamSession(url, cookie) for cookie in cookies]
    try:
        for asker in askers:
            await asker.open()
        yield askers
    finally:
        for asker in askers:
            await asker.close()


@asynccontextmanager
async def _browser_sessions(url: str, cookies: list[str]):
    """Ask pages in one Chromium, one per cookie, each in its own browser context (its own session)."""
    from playwright.async_api import async_playwright
    async with async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        askers = []
        for cookie in cookies:
            context = await browser.new_context(viewport={"width": 1400, "height": 900})
            if cookie:
                name, value = cookie.split("=", 1)
                await context.add_cookies([{"name": name, "value": value, "url": url}])
            page = await context.new_page()
            page.set_default_timeout(300_000)
            await page.goto(url)
            await page.get_by_test_id("stChatInputTextArea").wait_for(timeout=300_000)
            askers.append(_AsyncAsker(page))
        try:
            yield askers
        finally:
            await browser.close()


async def _cpu_per_question(url: str, pids, questions: list[str], cookies: list[str]) -> tuple[float, float, float]:
    """CPU seconds per question of Chromium's processes and of the app's server, and the median seconds
    to the answer, for one session asking alone in Chromium."""
    import psutil
    app = [psutil.Process(pid) for pid in pids()]

    def chromium() -> list:
        return [p for p in psutil.Process().children(recursive=True) if "chrom" in p.name().lower()]

    async with _browser_sessions(url, cookies[:1]) as (asker,):
        for q in QUESTIONS:
            await asker.ask(q)
        browsers = chromium()
        before = _cpu_seconds(browsers), _cpu_seconds(app)
        walls = [await asker.ask(q) for q in questions]
        after = _cpu_seconds(browsers), _cpu_seconds(app)
    n = len(questions)
    return (after[0] - before[0]) / n, (after[1] - before[1]) / n, statistics.median(walls)


def percentile(values: list[float], q: float) -> float:
    """The q-th percentile (nearest rank) in seconds, to the millisecond."""
    ordered = sorted(values)
    return round(ordered[min(len(ordered) - 1, max(0, round(q / 100 * (len(ordered) - 1))))], 3) if ordered else 0.0


class _AsyncAsker:
    """The Ask page of one session, driven with Playwright's async API."""

    def __init__(self, page) -> None:
        self.page = page
        self.asked = 0

    async def ask(self, question: str) -> float:
        self.asked += 1
        box = self.page.get_by_test_id("stChatInputTextArea")
        await box.fill(question)
        started = time.perf_counter()
        await box.press("Enter")
        await self.page.get_by_text(f"Question {self.asked} of this session", exact=True).wait_for()
        await self.page.locator("h3", has_text=question).first.wait_for()
        elapsed = time.perf_counter() - started
        from vera_bench.ui_driver import IDLE
        await self.page.wait_for_function(IDLE, polling=100)
        return elapsed
