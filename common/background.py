"""One job run in a background thread beside the caller's own work, and called off when
that work fails: the audit runs its band search (whose sweeps wait on worker processes)
while its own sections compute in the main thread, so the two cores are busy together
(robinwood.audit_command).

The job takes a `stop` keyword (a threading.Event) and must return soon after it is set
(sweep.executors.run_local checks it every half second). The thread is a daemon: an
interpreter leaving on an error never waits for it.
"""

from __future__ import annotations

import threading


class Background:
    """`fn(*args, stop=event, **kwargs)` in a daemon thread, started at once."""

    def __init__(self, fn, *args, name: str = "background job", **kwargs):
        self.stop = threading.Event()
        self._outcome: dict = {}
        self._thread = threading.Thread(target=self._run, name=name, daemon=True,
                                        args=(fn, args, {**kwargs, "stop": self.stop}))
        self._thread.start()

    def _run(self, fn, args, kwargs) -> None:
        try:
            self._outcome["value"] = fn(*args, **kwargs)
        except BaseException as e:  # handed to result(), in the caller's thread
            self._outcome["error"] = e

    def result(self):
        """Wait for the job; its value, or its exception raised here."""
        self._thread.join()
        if "error" in self._outcome:
            raise self._outcome["error"]
        return self._outcome["value"]

    def cancel(self, timeout: float = 60.0) -> None:
        """Set the stop event and wait (at most `timeout` seconds) for the job to end;
        its outcome is dropped."""
        self.stop.set()
        self._thread.join(timeout)
