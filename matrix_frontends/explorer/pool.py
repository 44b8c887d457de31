"""The explorer's worker processes (server.py's heavy queries): a small pool, each
worker of lower priority, bounded memory, ended with its server however that ends, and
writing its answers to the client's connection itself (a duplicate of the socket the
server hands it); whoever first creates a request's token file, the worker or the server
with its 503, answers."""

# (the socket handshake's hmac, multiprocessing's socket passing and the shlex that spells
# an answer's command line load here, before the workers fork: a first query imports
# none of it, in the server or a worker)
from __future__ import annotations

import contextlib
import ctypes
import hmac  # noqa: F401
import itertools
import multiprocessing
import multiprocessing.resource_sharer
import os
import resource
import shlex  # noqa: F401
import shutil
import signal
import socket
import tempfile
import threading
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures import TimeoutError as Late
from concurrent.futures.process import BrokenProcessPool

from instructions.record import Record

from matrix_frontends.cli import respond as cli_respond
from matrix_frontends.cli.inputs import command_line
from matrix_frontends.explorer.heads import head

HEAVY_WORKERS = 2         # worker processes of heavy queries
HEAVY_WAITING = 64        # heavy queries in flight at most (more: 503)
HEAVY_SECONDS = 30        # a heavy query's answer is waited for this long (then 503)
WORKER_MEMORY = 2 << 30   # address space of a worker process
KEPT_BLOCK = 32 << 20       # a worker's blocks up to this size come from the C heap
KEPT_FREE = 256 << 20       # and this much freed memory stays there for the next answer
M_TRIM_THRESHOLD, M_MMAP_THRESHOLD = -1, -3  # (glibc's mallopt parameters, malloc.h)
PARENT_SECONDS = 1    # a worker looks this often whether its server still runs


class Sent(Record):
    """A worker's answer of `size` bytes, written to the connection by the worker."""
    size: int


class Reply(Record):
    """Where a worker writes a query's answer: `connection` (a duplicate of the
    client's socket, waiting at most `timeout` seconds for the client to read), as a 200
    of `content_type`, once it has created the file `token`."""
    connection: socket.socket
    content_type: str
    token: str
    timeout: float | None = None


def claim(token: str) -> bool:
    """Whether this process is the first to create the file `token` (then it answers)."""
    try:
        os.close(os.open(token, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600))
    except FileExistsError:
        return False
    return True


def _forget(token: str) -> None:
    """Remove a request's token file (there may be none: an error, or a late worker)."""
    with contextlib.suppress(FileNotFoundError):
        os.unlink(token)


def _respond(words: Sequence[str], reply: Reply | None) -> tuple[int, str | Sent]:
    """respond.respond in a worker process (picklable: a module-level function); an
    answer (status 0) is written to `reply`'s connection here when the token is ours
    (status 0, Sent(0) when the server has answered already), an error message returned."""
    if reply is None:
        return cli_respond.respond(words)
    connection = reply.connection
    try:
        status, text = cli_respond.respond(words)
        if status:  # (an error: the server sends it)
            return status, text
        if not claim(reply.token):
            return status, Sent(0)
        data = text.encode("utf-8")
        connection.settimeout(reply.timeout)  # (the duplicate shares the server's O_NONBLOCK)
        with contextlib.suppress(OSError):  # (a reader gone: nothing to say)
            connection.sendall(head(200, reply.content_type, len(data), command_line(words)))
            connection.sendall(data)
        return status, Sent(len(data))
    finally:
        connection.close()


def _worker_setup(server: int, warm: Sequence[Sequence[str]] = ()) -> None:
    """A worker of the process `server`: lower priority than the server, bounded memory,
    Ctrl-C and SIGTERM left to the server (which ends the pool), ended with the server
    however that ends, freed memory kept for the next answer, the command lines `warm`
    answered once (warm_up)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    os.nice(5)
    resource.setrlimit(resource.RLIMIT_AS, (WORKER_MEMORY, WORKER_MEMORY))
    end_with(server)
    keep_memory()
    warm_up(warm)


WARMED: list[int] = []  # the statuses of this process's warm_up (a worker's)


def warm_up(lines: Sequence[Sequence[str]]) -> list[int]:
    """Answer each command line once, throwing the answers away (a worker does as it
    starts: the modules its first queries need are then loaded, which costs a cold
    worker's first answer 15-25 ms); their statuses (also kept in WARMED), -1 for a
    line that raised."""
    statuses = []
    for words in lines:
        try:
            statuses.append(cli_respond.respond(words)[0])
        except Exception:  # (a warm-up never stops a worker: the query itself would say)
            statuses.append(-1)
    WARMED.extend(statuses)
    return statuses


def end_with(parent: int) -> None:
    """End this process (a worker) once its parent, the process `parent`, has ended: a
    server killed outright would otherwise leave its workers waiting for work for ever,
    holding its standard output and error open. A thread looks every PARENT_SECONDS
    (prctl's parent-death signal would follow the thread that forked the worker, which
    may be a request's)."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(PARENT_SECONDS)
        os._exit(1)
    threading.Thread(target=watch, daemon=True, name="parent-watch").start()


def keep_memory() -> bool:
    """Ask the C library (glibc's mallopt; elsewhere nothing: False) to take blocks of up
    to KEPT_BLOCK bytes from its heap and to keep up to KEPT_FREE bytes of freed memory
    there: by default a block of 128 KiB or more is mapped afresh and returned when freed,
    so each answer of megabytes paid a page fault per 4 KiB of every string it built
    (about 1,800 for a 7 MB answer, each copy of it)."""
    try:  # (the running program's own symbols: its C library's among them)
        mallopt = ctypes.CDLL(None).mallopt
    except (AttributeError, OSError):  # (no glibc)
        return False
    mallopt.argtypes, mallopt.restype = (ctypes.c_int, ctypes.c_int), ctypes.c_int
    return bool(mallopt(M_MMAP_THRESHOLD, KEPT_BLOCK) and mallopt(M_TRIM_THRESHOLD, KEPT_FREE))


class Heavy:
    """The pool of worker processes heavy queries run in, started at once (forked before
    the server's threads run) and started again if a worker dies."""

    def __init__(self, warm: Sequence[Sequence[str]] = ()) -> None:
        self.warm = warm  # (command lines each worker answers as it starts: warm_up)
        self.lock = threading.Lock()
        self.numbers = itertools.count()
        self.slots = threading.BoundedSemaphore(HEAVY_WAITING)
        self.pool: ProcessPoolExecutor | None = None
        self.folder = tempfile.mkdtemp(prefix="matrix-calculator-explorer-")  # (mode 0700)
        self._start()

    def _start(self) -> None:
        self.pool = ProcessPoolExecutor(HEAVY_WORKERS, multiprocessing.get_context("fork"),
                                        initializer=_worker_setup,
                                        initargs=(os.getpid(), self.warm))
        for started in [self.pool.submit(len, ()) for _ in range(HEAVY_WORKERS)]:
            started.result()

    def respond(self, words: Sequence[str], connection: socket.socket | None = None,
                content_type: str = "text/plain") -> tuple[int, str | Sent]:
        """(status, text) as respond.respond gives them, or Sent when the worker wrote
        the answer to `connection` (as a 200 of `content_type`); 503 when too busy or
        too late."""
        if not self.slots.acquire(blocking=False):
            return 503, (f"the explorer is busy: {HEAVY_WAITING} heavy queries are in "
                         "flight; try again in a moment")
        token = os.path.join(self.folder, str(next(self.numbers)))
        # (a duplicate of the socket, open until the worker is done: it is pickled, with
        # its number, when the query reaches a worker, which may be after a 503)
        reply = None if connection is None else Reply(connection.dup(), content_type, token,
                                                      connection.gettimeout())
        try:
            with self.lock:
                assert self.pool is not None
                future = self.pool.submit(_respond, list(words), reply)
            if reply is not None:
                future.add_done_callback(lambda _: reply.connection.close())
            try:
                return future.result(timeout=HEAVY_SECONDS)
            except Late:
                if not claim(token):  # (the worker is writing its answer: let it end)
                    return future.result()
                late, token = token, ""  # (removed when the worker is done)
                future.add_done_callback(lambda _: _forget(late))
                return 503, f"this query took longer than {HEAVY_SECONDS} s; it was not answered"
        except BrokenProcessPool:
            with self.lock:
                self._start()
            return 500, "internal error (a worker process ended); please report this query"
        finally:
            self.slots.release()
            if token:
                _forget(token)

    def close(self) -> None:
        """End the workers (a query still running in one is abandoned) and remove their
        folder of tokens."""
        if self.pool is not None:
            processes = list((getattr(self.pool, "_processes", None) or {}).values())
            self.pool.shutdown(wait=False, cancel_futures=True)
            for process in processes:
                process.terminate()
                process.join(1)
            self.pool = None
        shutil.rmtree(self.folder, ignore_errors=True)
