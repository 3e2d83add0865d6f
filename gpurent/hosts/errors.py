"""What can go wrong between the shop and a GPU host. Operators read these (notices, the desk, the
command line); a customer only ever sees that provisioning failed and was refunded."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _

from gpurent.core.errors import ApplicationError, Conflict


class HostError(ApplicationError):
    """A call to a host's agent did not succeed; `detail` says why, for operators."""

    code = "host_error"
    status = 502
    default_message = _("The GPU host could not do it.")


class HostUnreachable(HostError):
    """No SSH connection (refused, timed out, authentication refused): the host leaves stock."""

    code = "host_unreachable"
    default_message = _("The GPU host does not answer.")


class ShopKeyMissing(HostUnreachable):
    """The shop's own SSH identity (`HOSTS_SSH_KEY_FILE`) is not set or cannot be read: no host was contacted.
    A fault of the shop's settings, not of a host; every host is out of reach until it is fixed."""

    code = "host_shop_key_missing"
    default_message = _("The shop has no SSH key for its GPU hosts: the host was not contacted.")


class HostKeyChanged(HostError):
    """The host showed another SSH host key than the pinned one: all work on it stops."""

    code = "host_key_changed"
    default_message = _("The GPU host's SSH key changed; nothing was sent to it.")


class AgentFailed(HostError):
    """The agent ran and said no (exit code and message in `answer`)."""

    code = "host_agent_failed"

    def __init__(self, message: str, *, exit_code: int, answer: dict[str, Any]) -> None:
        super().__init__(message, detail=message)
        self.exit_code = exit_code
        self.answer = answer


class NoHostFree(Conflict):
    """No healthy, non-drained host of the GPU model has enough free cards for the rental."""

    code = "no_host_free"
    default_message = _("No GPU host has enough free GPUs for this rental.")
