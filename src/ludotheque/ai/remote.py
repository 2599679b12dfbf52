"""Bot work on Ray: :class:`RayExecutor`, a drop-in for ``ProcessPoolExecutor`` where each call
runs as a Ray task, on a local Ray (started here, once per process) or on a cluster.

The arena, self-play and the server's bot pool only ``submit`` module-level functions and
``shutdown``; a :class:`RayExecutor` serves them the same ``concurrent.futures.Future`` as a
process pool, so the same seeds give the same games wherever they are played. Ray is the
``distributed`` extra; without it the executor says how to install it, in French and English.

Addresses: ``None`` or ``"local"`` start a Ray of ``num_cpus`` CPUs (2 by default) in this
process, shut down when the last executor using it shuts down; ``"auto"``, ``"host:port"`` (a
node of the cluster runs here) and ``"ray://host:port"`` (Ray Client) connect to a running
cluster, whose workers must be able to import ``ludotheque`` (docs/ray.md). The environment
variable ``LUDOTHEQUE_RAY_RUNTIME_ENV`` may hold a Ray ``runtime_env`` as JSON, given to
``ray.init`` (for instance ``{"py_modules": ["src/ludotheque"]}`` or ``{"pip": [...]}``).

>>> local_address(None), local_address("local"), local_address("ray://head:10001")
(True, True, False)
>>> print(RayUnavailableError().text("fr"))
Ray n'est pas installé : installez l'extra « distributed » (pip install 'ludotheque[distributed]').
"""

from __future__ import annotations

import contextlib
import inspect
import json
import logging
import os
import sys
import threading
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Executor, Future, as_completed
from types import ModuleType, TracebackType
from typing import Any, ParamSpec, TypeVar

P = ParamSpec("P")
R = TypeVar("R")

LOCAL = "local"
DEFAULT_LOCAL_CPUS = 2
RUNTIME_ENV_VARIABLE = "LUDOTHEQUE_RAY_RUNTIME_ENV"

MESSAGES: dict[str, dict[str, str]] = {
    "missing": {
        "en": "Ray is not installed: install the 'distributed' extra "
              "(pip install 'ludotheque[distributed]').",
        "fr": "Ray n'est pas installé : installez l'extra « distributed » "
              "(pip install 'ludotheque[distributed]').",
    },
    "connect": {
        "en": "cannot reach Ray at {address}: {reason}",
        "fr": "impossible de joindre Ray à {address} : {reason}",
    },
    "other_ray": {
        "en": "this process is already connected to Ray at {current}, not {address}",
        "fr": "ce processus est déjà connecté à Ray à {current}, pas à {address}",
    },
    "shut_down": {
        "en": "cannot submit work after shutdown",
        "fr": "plus de travail possible après l'arrêt",
    },
}


class RayError(RuntimeError):
    """A Ray problem people can act on; ``text(lang)`` says it in French or English, ``str``
    in both."""

    key = ""

    def __init__(self, **fields: str) -> None:
        self.fields = fields
        super().__init__(f"{self.text('en')} / {self.text('fr')}")

    def text(self, lang: str) -> str:
        words = MESSAGES[self.key]
        return words.get(lang, words["en"]).format(**self.fields)


class RayUnavailableError(RayError, ImportError):
    """Ray is not installed (the ``distributed`` extra)."""

    key = "missing"


class RayConnectionError(RayError, ConnectionError):
    """No Ray could be started or reached at the address, or another one is in use here."""

    key = "connect"


class OtherRayError(RayError):
    key = "other_ray"


def local_address(address: str | None) -> bool:
    """Whether ``address`` asks for a Ray started in this process."""
    return address is None or address == LOCAL


def import_ray() -> ModuleType:
    """The ``ray`` module; raises :class:`RayUnavailableError` when the extra is missing."""
    try:
        import ray
    except ImportError:
        raise RayUnavailableError() from None
    return ray


def ray_running() -> bool:
    """Whether this process is connected to Ray (without importing it when it is not loaded)."""
    ray = sys.modules.get("ray")
    return ray is not None and bool(ray.is_initialized())


class _Session:
    """This process's connection to Ray when an executor made it: opened by the first
    executor, closed (the local Ray shut down) when the last one shuts down."""

    lock = threading.Lock()
    users = 0
    address: str | None = None  # what the executors asked for (``"local"`` for a local Ray)

    @classmethod
    def join(cls, address: str | None, num_cpus: int | None) -> bool:
        """Connect (or start) unless already done; returns whether this executor holds the
        session (a Ray someone else started is used, never shut down)."""
        ray = import_ray()
        wanted = LOCAL if local_address(address) else str(address)
        with cls.lock:
            if cls.users:
                if wanted != cls.address:
                    raise OtherRayError(current=str(cls.address), address=wanted)
                cls.users += 1
                return True
            if ray.is_initialized():
                return False
            try:
                ray.init(**_init_arguments(wanted, num_cpus))
            except (ConnectionError, RuntimeError, ValueError, TimeoutError) as error:
                raise RayConnectionError(address=wanted, reason=str(error).strip()) from None
            cls.users, cls.address = 1, wanted
            return True

    @classmethod
    def leave(cls) -> None:
        with cls.lock:
            cls.users -= 1
            if cls.users == 0:
                cls.address = None
                import_ray().shutdown()


def _init_arguments(address: str, num_cpus: int | None) -> dict[str, Any]:
    arguments: dict[str, Any] = {
        "address": address,
        # Quiet: errors only; the workers' output stays in Ray's log folder.
        "logging_level": logging.ERROR,
        "log_to_driver": False,
        "namespace": "ludotheque",
    }
    if address == LOCAL:
        arguments.update(num_cpus=num_cpus or DEFAULT_LOCAL_CPUS, include_dashboard=False)
    runtime_env = os.environ.get(RUNTIME_ENV_VARIABLE)
    if runtime_env:
        arguments["runtime_env"] = json.loads(runtime_env)
    return arguments


class RayExecutor(Executor):
    """``submit(fn, *args)`` runs ``fn(*args)`` as a Ray task and returns a
    ``concurrent.futures.Future``: its result, or the task's exception (an instance of the
    exception ``fn`` raised, carrying the remote traceback).

    ``fn`` must be importable by the workers (a module-level function of an installed package).
    Creating the executor connects (a local Ray takes several seconds to start).
    """

    def __init__(self, address: str | None = None, *, num_cpus: int | None = None) -> None:
        self.address = LOCAL if local_address(address) else address
        self._ray = import_ray()
        self._holds_session = _Session.join(address, num_cpus)
        self._remote: dict[Callable[..., Any], Any] = {}
        self._pending: dict[Future[Any], Any] = {}  # future -> its task's ObjectRef
        self._lock = threading.Lock()
        self._closed = False

    def submit(self, fn: Callable[P, R], /, *args: P.args, **kwargs: P.kwargs) -> Future[R]:
        with self._lock:
            if self._closed:
                raise RuntimeError(f"{MESSAGES['shut_down']['en']} / {MESSAGES['shut_down']['fr']}")
            target: Callable[..., Any] = fn
            arguments: tuple[Any, ...] = args
            if not inspect.isfunction(fn):  # a builtin, a class, a partial: Ray takes only functions
                target, arguments = _call, (fn, *args)
            remote = self._remote.get(target)
            if remote is None:  # one Ray function per Python function: exported once
                remote = self._remote[target] = self._ray.remote(target)
            ref = remote.remote(*arguments, **kwargs)
            future: Future[R] = Future()
            self._pending[future] = ref
        # As in a process pool, a future cancelled before its result comes is given up; its task
        # is cancelled too, so that it stops taking a CPU.
        future.add_done_callback(lambda _: self._forget(future))
        ref.future().add_done_callback(lambda done: self._settle(future, done))
        return future

    def _forget(self, future: Future[Any]) -> None:
        with self._lock:
            ref = self._pending.pop(future, None)
        if ref is not None and future.cancelled() and self._ray.is_initialized():
            with contextlib.suppress(Exception):  # the task may be over, or Ray gone meanwhile
                self._ray.cancel(ref)

    @staticmethod
    def _settle(future: Future[R], done: Future[Any]) -> None:
        if not future.set_running_or_notify_cancel():  # cancelled meanwhile
            return
        error = done.exception()
        if error is not None:
            future.set_exception(error)
        else:
            future.set_result(done.result())

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        """No more work; ``cancel_futures`` cancels the unfinished tasks, ``wait`` waits for the
        others. The local Ray stops when the last executor using it shuts down."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
            pending = list(self._pending)
        # Work left running when this process's Ray stops could never finish: cancel it.
        if cancel_futures or (not wait and self._holds_session and _Session.users == 1):
            for future in pending:
                future.cancel()
        if wait:
            for _ in as_completed(pending):
                pass
        if self._holds_session:
            self._holds_session = False
            _Session.leave()

    def __enter__(self) -> RayExecutor:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        self.shutdown(wait=error is None, cancel_futures=error is not None)


def _call(fn: Callable[..., R], *args: Any, **kwargs: Any) -> R:
    """Runs on a Ray worker: ``fn(*args, **kwargs)`` for a callable Ray does not take itself."""
    return fn(*args, **kwargs)


def unordered_results(
    executor: Executor | None, fn: Callable[..., R], calls: Iterable[tuple[Any, ...]]
) -> Iterator[R]:
    """``fn(*args)`` for each of ``calls``, as each finishes (in order, here, without
    ``executor``). Raises the first exception a call raises."""
    if executor is None:
        for args in calls:
            yield fn(*args)
        return
    futures = [executor.submit(fn, *args) for args in calls]
    try:
        for future in as_completed(futures):
            yield future.result()
    finally:
        for future in futures:
            future.cancel()
