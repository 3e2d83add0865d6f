"""`/api/v1/ssh-keys`: list, add and remove the SSH public keys kept on the account (as on the account page).

Token (`Authorization: Bearer`) or session auth; another customer's key is a 404. Adding and removing need an
`Idempotency-Key` header, like every write of the API: a retry with the same key replays the first answer.
The same checks as the account page (`services.ssh_key_add`): a private key is refused (422) and never
stored or echoed back.
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, cast

from django.http import HttpRequest
from ninja import Field, Path, Router, Schema, Status

from gpurent.core.api import ErrorOut
from gpurent.core.idempotency.keys import Outcome
from gpurent.core.idempotency.request import IdempotencyKeyHeader, api_idempotent
from gpurent.core.schemas import InputSchema

from .api_auth import api_auth
from .models import SshKey, User
from .selectors import ssh_key_list
from .services import ssh_key_add, ssh_key_remove
from .sshkeys import MAX_KEY_LENGTH

router = Router(tags=["ssh-keys"], auth=api_auth)

_WRITE_ERRORS: dict[int, type[Schema]] = {
    400: ErrorOut,
    401: ErrorOut,
    403: ErrorOut,
    404: ErrorOut,
    409: ErrorOut,
    422: ErrorOut,
}


# Bounded like a database id, so an absurd number is a 422, not an overflow in the query.
KeyId = Annotated[int, Path(ge=1, le=2**63 - 1)]


class SshKeyIn(InputSchema):
    name: str = Field(min_length=1, max_length=100, pattern=r"\S", examples=["laptop"])
    public_key: str = Field(
        min_length=1,
        max_length=MAX_KEY_LENGTH,
        description="One OpenSSH public key line (the contents of a .pub file). Never the private key.",
        examples=["ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIJUGuYRqDEl2LE7zPdvoSaHv1/651IMn+SkGdm4Khijo ana@laptop"],
    )


class SshKeyOut(Schema):
    id: int
    name: str
    key_type: str = Field(examples=["ssh-ed25519"])
    fingerprint: str = Field(description="As `ssh-keygen -l` prints it.", examples=["SHA256:xCEx7Jb…"])
    public_key: str
    created_at: datetime


def _out(key: SshKey) -> dict[str, Any]:
    return {
        "id": key.pk,
        "name": key.name,
        "key_type": key.key_type,
        "fingerprint": key.fingerprint,
        "public_key": key.public_key,
        "created_at": key.created_at,
    }


@router.get("", response={200: list[SshKeyOut], 401: ErrorOut, 403: ErrorOut}, summary="List my SSH keys")
def list_keys(request: HttpRequest) -> list[dict[str, Any]]:
    """Every key on the account, by name. At checkout they all go on the machine unless some are left out."""
    return [_out(key) for key in ssh_key_list(user=cast(User, request.user))]


@router.post("", response={201: SshKeyOut, **_WRITE_ERRORS}, summary="Add an SSH public key")
def add_key(request: HttpRequest, payload: SshKeyIn, idempotency_key: IdempotencyKeyHeader) -> Status[Any]:
    """Add a public key. 422 `invalid_request` for a private key (not stored), an invalid key, or a key already
    on the account; 409 `too_many_ssh_keys` when the account already keeps `ACCOUNTS_MAX_SSH_KEYS` (50) keys.
    Requires an `Idempotency-Key` header."""
    user = cast(User, request.user)

    def add() -> Outcome:
        return Outcome(201, _out(ssh_key_add(user=user, name=payload.name, public_key=payload.public_key)))

    outcome = api_idempotent(request, idempotency_key, payload.model_dump(), add)
    return Status(outcome.status, outcome.body)


@router.delete("/{key_id}", response={200: SshKeyOut, **_WRITE_ERRORS}, summary="Remove an SSH key")
def remove_key(request: HttpRequest, key_id: KeyId, idempotency_key: IdempotencyKeyHeader) -> Status[Any]:
    """Remove one of my keys; returns it. Machines already delivered keep the keys they were given. 404 for a
    key that is not mine (or no longer exists). Requires an `Idempotency-Key` header: a retry replays the
    first answer."""
    user = cast(User, request.user)

    def remove() -> Outcome:
        # A deleted row has no primary key any more: the answer names the id that was asked for.
        return Outcome(200, _out(ssh_key_remove(user=user, key_id=key_id)) | {"id": key_id})

    outcome = api_idempotent(request, idempotency_key, {"key_id": key_id}, remove)
    return Status(outcome.status, outcome.body)
